import { setImmediate as nextTick } from 'node:timers/promises';
import type { z } from 'zod';
import type { RunEstimate } from '../../../src-shared/owner/runs.ts';
import { samplesPage } from '../../store/datasets-rows.ts';
import { rowsSize } from '../../store/row-sizes.ts';
import { balances, OWNER_ACCOUNT_ID } from '../billing/billing.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { estimate, sampleTokens, type Estimate } from '../billing/estimate.ts';
import { microToUsd, tokenCostMicro } from '../billing/money.ts';
import { runOperation, runOperationInThread } from '../runs/operation.ts';
import { filePassPool, runPooled } from '../runs/pool/pooled.ts';
import type { EnginePool } from '../runs/pool/pool.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { prng } from '../../engine/dataset/prng.ts';
import { operationFor, type ParsedRunRequest } from './run-request.ts';
import { sampleReader } from './row-sample.ts';
import { resolveScope } from './run-scope.ts';
import type { ScopeRows } from './scope.ts';
import { readyDataset } from './summary.ts';

/** Samples read per step of an estimate; the event loop runs between steps. */
export const ESTIMATE_BATCH_ROWS = 1000;

/**
 * The trial an estimate makes on the builtin engine: this share of the
 * scope's rows, at least MIN and at most MAX, so that it costs a few percent
 * of the run (whose rows the worker pool shares out besides).
 */
export const TRIAL_SHARE = 0.015;
export const MIN_TRIAL_ROWS = 24;
export const MAX_TRIAL_ROWS = 120;
/** The trial runs in this many slices, each spread over the scope; the bound is from their spread. */
export const TRIAL_SLICES = 8;
/**
 * A run the trial's first slice (or, when that one was slow, its second)
 * says takes less than this is not estimated further: starting it answers
 * sooner than an estimate would.
 */
export const SHORT_RUN_MS = 1000;
/**
 * A scope of at most this many characters as stored is short without
 * timing anything: a refine of 0.94 M characters (Alpaca, the slowest of the
 * shared datasets per character, four times over) took 0.3 s on two cores
 * busy with other work, 100 OASST trees (0.98 M) 0.07 s, so a machine a few
 * times slower still runs it in about a second. Its trial is two slices, for
 * the rough figure. Timing slices alone decided this before, and on a busy machine
 * (a collection, a thread switched out) a run of 0.1 s was taken for one of
 * over a second and tried in full: 40% of the run's time.
 */
export const SHORT_RUN_CHARS = 1024 * 1024;
/**
 * A short run's time per unit of the engine's time on its rows, a little
 * over what was measured: the run also writes every row's blocks, verdicts
 * and history, but shares the rows out to the engine's threads. On two cores
 * runs of 100 to 300 rows of the shared datasets took 0.6 to 1.4 times the
 * engine's time on one thread (4 was once measured on a run of 6,000 rows,
 * but a run that long is not short whichever is used; with 4, a run of 100
 * OASST trees that took 0.1-0.3 s was taken for one of over a second and
 * its estimate took 40% of its time).
 */
const RUN_PER_ENGINE_TIME = 2;
/**
 * The engine pool when the trial's later slices can run side by side on it:
 * the builtin engine and a pool whose workers are already up. A cold pool
 * (none started yet, or all retired after a minute idle) would make the
 * estimate pay each worker's start and tokenizer tables (0.4-0.7 s, most of
 * a short run's time), which the main thread, whose tokenizer is loaded at
 * start, does not pay.
 */
function warmPool(backend: EngineBackend): EnginePool | undefined {
  const pool = backend === builtinBackend ? filePassPool() : undefined;
  return pool && pool.live > 0 && !pool.unavailable ? pool : undefined;
}

/**
 * The samples of a slice run on the server's thread that the engine is told of
 * at a time. Its read-ahead of a whole slice (15 GSM8K rows) was one turn of
 * 12.5 ms the first time after a start (1.2 ms once its code was optimized),
 * which with the slice's reading made holds of 22 ms; in fours it yields
 * between them (17 ms), and a slice this small gains little from reading further.
 */
const PREPARE_AHEAD_HERE = 4;

/** The seed of the trial's draw. */
const TRIAL_SEED = 0x5eed;

/**
 * Up to `count` of the indices, one drawn from each of `count` equal stretches
 * (all of them when there are fewer): spread over the scope like an even
 * stride, but never in step with a pattern of the rows (a file repeated, a
 * stride the same as its period, saw the same few rows over and over). Drawn
 * by a fixed seed: the same scope gets the same trial.
 */
function spread(indices: ScopeRows, count: number): number[] {
  if (indices.length <= count) return indices.slice(0, indices.length);
  const random = prng(TRIAL_SEED);
  return Array.from({ length: count }, (_, i) => {
    const low = Math.floor((i * indices.length) / count);
    const high = Math.floor(((i + 1) * indices.length) / count);
    return indices.at(low + Math.floor(random() * (high - low)));
  });
}

interface Slice {
  micro: number;
  /** Characters of its rows as stored. */
  size: number;
  rows: number;
}

export interface EstimateOptions {
  /** See SHORT_RUN_MS (tests choose either outcome without timing anything). */
  shortRunMs?: number;
  /** See SHORT_RUN_CHARS. */
  shortRunChars?: number;
}

/**
 * What a run's usage would cost at the rates (the owner's runs spend no
 * credit; this says what the tokens are worth).
 *
 * On the builtin engine, a trial: the same operation on a few percent of the
 * rows, spread over the scope, in TRIAL_SLICES slices each spread over it.
 * Expected: the trial's cost per character of stored row times the scope's
 * characters (`rowsSize`: summed by SQLite, no row read), or per row times
 * its rows, whichever the slices agree on more. The engine is deterministic,
 * so this is what the run does, within what the trial's rows stand for. At
 * most: the slices' mean rate three standard errors up, by whichever way of
 * scaling gives more. A short run (a scope of at most SHORT_RUN_CHARS, or
 * one the faster of the first two slices says is shorter than
 * SHORT_RUN_MS) stops after those two (`short_run`, no bound): the run
 * itself answers sooner than a full estimate. No row outside the trial is read: counting every row's tokens
 * had taken longer than the run.
 *
 * On an upstream, no trial (it would spend the upstream's tokens): the input
 * tokens of every row are counted, and the bound of estimate.ts (every vote,
 * every fix attempt with its re-audit, generous outputs) is both figures.
 */
export async function estimateRun(
  ctx: ServiceContext,
  request: ParsedRunRequest,
  backend: EngineBackend,
  options: EstimateOptions = {},
): Promise<z.output<typeof RunEstimate>> {
  const dataset = readyDataset(ctx.db, request.dataset_id);
  const builtin = backend.id === 'builtin';
  // Off the main thread, and the scope's size only where the trial scales by it.
  const scope = await resolveScope(ctx.db, dataset, request.scope, { size: builtin });
  const indices = scope.rows;
  const available_usd = microToUsd(Math.max(0, balances(ctx.db, OWNER_ACCOUNT_ID).available_micro));
  const base = { samples: indices.length, available_usd };
  if (indices.length === 0) {
    return { ...base, expected_cost_usd: 0, max_cost_usd: 0, short_run: false, trial_rows: 0 };
  }
  if (!builtin) {
    const bound = microToUsd(await worstCaseMicro(ctx, request, indices));
    return {
      ...base,
      expected_cost_usd: bound,
      max_cost_usd: bound,
      short_run: false,
      trial_rows: 0,
    };
  }
  return {
    ...base,
    ...(await trialEstimate(ctx, request, indices, scope.size ?? 0, backend, options)),
  };
}

async function trialEstimate(
  ctx: ServiceContext,
  request: ParsedRunRequest,
  indices: ScopeRows,
  size: number,
  backend: EngineBackend,
  { shortRunMs = SHORT_RUN_MS, shortRunChars = SHORT_RUN_CHARS }: EstimateOptions,
): Promise<Pick<RunEstimate, 'expected_cost_usd' | 'max_cost_usd' | 'short_run' | 'trial_rows'>> {
  const { db } = ctx;
  const rates = ctx.settings().rates;
  const sampleOf = sampleReader(db, request.dataset_id);
  const trialSize = Math.min(
    MAX_TRIAL_ROWS,
    Math.max(MIN_TRIAL_ROWS, Math.ceil(indices.length * TRIAL_SHARE)),
  );
  const trial = spread(indices, trialSize);
  const trySlice = async (
    s: number,
    pool: EnginePool | undefined,
  ): Promise<{ slice: Slice; msPerRow: number }> => {
    // Slice s: every TRIAL_SLICES-th trial row from the s-th, so each slice spans the scope.
    const rows = trial.filter((_, i) => i % TRIAL_SLICES === s);
    const samples = samplesPage(db, request.dataset_id, rows).map(sampleOf);
    const operation = operationFor(request, samples);
    const started = performance.now();
    // In this thread the engine yields to the event loop every few milliseconds.
    const result = await (pool
      ? runPooled(operation, { backend }, runOperationInThread, pool)
      : runOperation(operation, { backend, prepareAhead: PREPARE_AHEAD_HERE }));
    const ms = performance.now() - started;
    const slice = {
      micro: tokenCostMicro(result.usage.byModel(), rates),
      size: rowsSize(db, request.dataset_id, rows),
      rows: rows.length,
    };
    return { slice, msPerRow: ms / Math.max(1, samples.length) };
  };
  const count = Math.min(TRIAL_SLICES, trial.length);
  const slices: Slice[] = [];
  let shortRun = size <= shortRunChars;
  let fastest = Number.POSITIVE_INFINITY;
  // The first two in this thread, one after the other: the faster decides whether the run is
  // short (the first also pays for the engine's first calls here). Two, not one, for the rough
  // figure: one slice cannot tell whether rows or characters scale it (three OASST rows, by
  // their characters, said a third of the usage). Not on the engine's threads even when they
  // are up: the pool splits a slice over its threads and queues it behind a run's work, and
  // RUN_PER_ENGINE_TIME is measured against one thread's time. (Here a slice holds the server
  // at most ~17 ms at a time, the first time after a start: see PREPARE_AHEAD_HERE.)
  for (let s = 0; s < Math.min(2, count); s++) {
    const { slice, msPerRow } = await trySlice(s, undefined);
    slices.push(slice);
    fastest = Math.min(fastest, msPerRow);
    shortRun ||= fastest * indices.length * RUN_PER_ENGINE_TIME < shortRunMs;
    await nextTick();
  }
  // The rest side by side on the engine's threads when they are up: the estimate's wall time is
  // what the person waits for (8 slices one after the other took 13% of a 0.8 s run of 2,000
  // OASST trees).
  if (!shortRun) {
    const pool = warmPool(backend);
    const rest = Array.from({ length: Math.max(0, count - 2) }, (_, i) => i + 2);
    if (pool) {
      const done = await Promise.all(rest.map((s) => trySlice(s, pool)));
      for (const { slice } of done) slices.push(slice);
    } else {
      for (const s of rest) {
        slices.push((await trySlice(s, undefined)).slice);
        await nextTick();
      }
    }
  }
  const tried = slices.reduce((sum, slice) => sum + slice.rows, 0);
  // Scaled by characters or by rows, whichever the slices agree on more: long rows cost more
  // (GSM8K), but rows of a few turns each cost much the same whatever their length (OASST).
  const scales = [
    { total: size, of: (slice: Slice) => slice.size },
    { total: indices.length, of: (slice: Slice) => slice.rows },
  ].map(({ total, of }) => {
    const rates = slices.map((slice) => slice.micro / Math.max(1, of(slice)));
    const spent = slices.reduce((sum, slice) => sum + slice.micro, 0);
    const measured = slices.reduce((sum, slice) => sum + of(slice), 0);
    return { total, rates, rate: spent / Math.max(1, measured), spread: relativeSpread(rates) };
  });
  const scale = scales.reduce((best, next) => (next.spread < best.spread ? next : best));
  return {
    expected_cost_usd: microToUsd(Math.round(scale.rate * scale.total)),
    // The bound covers both ways of scaling: which one the run follows is not known.
    max_cost_usd: shortRun
      ? null
      : microToUsd(Math.round(Math.max(...scales.map((s) => upperRate(s.rates) * s.total)))),
    short_run: shortRun,
    trial_rows: tried,
  };
}

const meanOf = (values: readonly number[]): number =>
  values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

const deviationOf = (values: readonly number[]): number => {
  if (values.length < 2) return 0;
  const mean = meanOf(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1));
};

/** How much rates differ, against their mean (0: all the same). */
const relativeSpread = (rates: readonly number[]): number =>
  deviationOf(rates) / Math.max(Number.MIN_VALUE, meanOf(rates));

/**
 * The rate the run stays under: the slices' mean three standard errors up
 * (Student's t at 99% for eight slices is 3.0). What is bounded is the
 * scope's total, so the uncertainty is that of the mean rate, not the
 * spread of single slices (treating every row as the costliest slice gave
 * 3.5x the actual on OASST).
 */
function upperRate(rates: readonly number[]): number {
  return meanOf(rates) + 3 * (deviationOf(rates) / Math.sqrt(Math.max(1, rates.length)));
}

/** The bound of estimate.ts over every row of the scope, its input tokens counted exactly. */
async function worstCaseMicro(
  ctx: ServiceContext,
  request: ParsedRunRequest,
  indices: ScopeRows,
): Promise<number> {
  const settings = ctx.settings();
  const usage: Estimate['usage'] = {
    'svc-audit-1': { input_tokens: 0, output_tokens: 0 },
    'svc-fix-1': { input_tokens: 0, output_tokens: 0 },
  };
  const sampleOf = sampleReader(ctx.db, request.dataset_id);
  for (let start = 0; start < indices.length; start += ESTIMATE_BATCH_ROWS) {
    const page = samplesPage(
      ctx.db,
      request.dataset_id,
      indices.slice(start, start + ESTIMATE_BATCH_ROWS),
    );
    const samples = page.map(sampleOf);
    const part = estimate(operationFor(request, samples), sampleTokens(samples), settings);
    for (const model of ['svc-audit-1', 'svc-fix-1'] as const) {
      usage[model].input_tokens += part.usage[model].input_tokens;
      usage[model].output_tokens += part.usage[model].output_tokens;
    }
    await nextTick();
  }
  return tokenCostMicro(usage, settings.rates);
}
