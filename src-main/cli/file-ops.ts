import { fileMatcher } from './contamination-flags.ts';
import { CleanRows } from './shard-rows.ts';
import { ShardLanguageSample } from '../engine/dataset/shard-language-sample.ts';
import { startLanguageIdentification } from '../engine/dataset/languages.ts';
import { BENCHMARK_NAMES } from '../../src-shared/benchmarks.ts';
import { randomBytes } from 'node:crypto';
import { basename, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { AppError, validationError } from '../../src-shared/errors.ts';
import {
  CONFIG_BY_OPERATION,
  Conventions,
  type Operation,
} from '../../src-shared/schemas/config.ts';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import { tokenCostMicro } from '../service/billing/money.ts';
import { OwnerRunUsage } from '../service/owner/run-usage.ts';
import type { OperationRequest, OperationResult, ResultSample } from '../service/runs/contract.ts';
import { runOperation } from '../service/runs/operation.ts';
import type { SampleRow } from '../engine/rows/index.ts';
import { readSamples } from '../service/samples/read-samples.ts';
import { UsageMeter } from '../engine/usage.ts';
import { describeEngines, resolveEngines, selectBackend } from '../service/runs/backend-select.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import type { RoleEngine } from '../engine/upstream/backend.ts';
import { openDatabase } from '../store/db.ts';
import { parseCommandArgs } from './args.ts';
import { MAP_FLAGS_USAGE, mappingFromFlags, pathsFromFlags, shapeFromFlags } from './map-flags.ts';
import { openJsonlSink } from './output.ts';
import { OrderedBatches } from './ordered-batches.ts';
import { printReport } from './dataset-report.ts';
import { addCounts } from '../service/dataset-checks/core.ts';
import { FileChecks } from '../service/dataset-checks/file.ts';
import type { scanFileInParallel } from './parallel-scan.ts';
import { runProgressBar as progressBar, ScanProgress } from './progress-bars.ts';
import type { TakenRunSlice } from '../service/file-pass/parallel-pass.ts';
import type { ShardRunResult } from '../service/file-pass/task-types.ts';
import { filePassPool, prestartFilePass } from '../service/runs/pool/pooled.ts';
import { FILE_OPS_OPTIONS, FILE_OPS_TWICE_HINTS } from './file-ops-options.ts';
import { passRunsOnPool } from './pool-ahead.ts';
import { meterOf } from '../service/runs/pool/wire.ts';
import { JsonText } from '../service/runs/history.ts';
import { fileChunks, formatFromPath, Utf8Watch } from '../files/index.ts';
import type { RowMapping } from '../engine/rows/index.ts';
import { openWriteBack, type WriteBack } from './write-back.ts';
import { Interruption } from './interruption.ts';
import { checkOutputTargets } from './output-targets.ts';
import { defaultDataDir, packageVersion } from './paths.ts';
import { summaryLines } from './run-summary.ts';
import {
  inputFingerprint,
  openPartWriter,
  ownsRow,
  PART_FORMAT,
  parseShard,
  rowsOfShard,
  type PartHeader,
  type PartWriter,
} from './shard.ts';

export const FILE_OPS_USAGE = `usage: svc audit|fix|refine IN [--out OUT] [--votes N] [--max-attempts N] [--conventions TEXT]
                    [--task-type TYPE --map ROLE=FIELD ... | --shape ID] [--oasst-paths best|all]
                    [--write-back] [--report PATH] [--shard I/N]
                    [--benchmarks all|none|NAME,...] [--against EVAL_FILE ...]
  IN: JSONL, JSON, CSV or Parquet. Rows with task_type are samples; other rows are mapped from
  their dataset shape (GSM8K, MMLU, ARC, CommonsenseQA, HellaSwag, TruthfulQA, Alpaca, ShareGPT,
  OpenAI chat, OpenAssistant, text) or from the field mapping given. Writes JSONL of the samples
  with their result blocks to OUT (stdout without --out); progress and a summary go to stderr.
  The models run on the builtin engine unless an upstream is configured (svc settings,
  SVC_UPSTREAM_URL...).
${MAP_FLAGS_USAGE}
  --report PATH     write the dataset report as JSON: counts per check and issue code (failed,
                    warned), duplicate groups (rows: 0-based output positions), findings
                    (answer-position skew, label imbalance...) and statistics
  --benchmarks LIST the public benchmarks whose test items the contamination check looks for:
                    all (default: the setting contamination.benchmarks), none, or names among
                    ${BENCHMARK_NAMES.join(', ')}
  --against FILE    also look for the rows of this evaluation file (repeatable; read like IN,
                    with the same shape and mapping flags): a row holding one fails split_overlap
  --write-back      fix/refine: write the source's own rows instead, in its schema, with each
                    repair in the field it came from (needs --out; its extension picks the
                    format: .jsonl, .json, .csv, .tsv, .parquet; unchanged rows stay byte for byte)
  --shard I/N       run shard I (0-based) of N: the source rows r with (r - 1) mod N = I, written
                    as a part (each row with its output position and source row) for svc merge,
                    which runs the dataset checks on the whole and writes the single run's output
                    (not with --write-back or --report: those belong to the whole file)`;

const BATCH = 500;
/**
 * Batches a row-at-a-time pass keeps in flight on the builtin engine while it
 * reads the next: enough to keep the workers fed while this thread reads, few
 * enough that their samples and results weigh little (2,000 samples).
 */
const BATCHES_AHEAD = 3;
/** Samples of the parallel pass whose usage is recorded in one transaction. */
const RECORD_SAMPLES = 5000;

/** JSON arrays (as text) as one array. */
const joinJsonArrays = (arrays: readonly string[]): string =>
  `[${arrays
    .map((array) => array.slice(1, -1))
    .filter((items) => items !== '')
    .join(',')}]`;

function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value))
    throw new AppError('invalid_request', `${flag} must be a whole number, got ${value}`);
  return Number(value);
}

/** The stage config of the operation from the flags, validated by the same schema as the routes. */
function configFrom(
  operation: Operation,
  votes: number | undefined,
  maxAttempts: number | undefined,
): unknown {
  const audit = votes === undefined ? {} : { votes };
  const fix = maxAttempts === undefined ? {} : { max_attempts: maxAttempts };
  const raw =
    operation === 'audit' ? audit : operation === 'fix' ? fix : { audit, fix, reaudit: audit };
  if (operation === 'audit' && maxAttempts !== undefined) {
    throw new AppError('invalid_request', '--max-attempts applies to fix and refine, not audit');
  }
  if (operation === 'fix' && votes !== undefined) {
    throw new AppError('invalid_request', '--votes applies to audit and refine, not fix');
  }
  const parsed = CONFIG_BY_OPERATION[operation].safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'options');
  return parsed.data;
}

/** Files whose lines count their rows (JSON Lines, CSV and TSV): the progress bars' totals. */
const countsLines = (path: string): boolean => {
  const format = formatFromPath(path);
  return format === 'jsonl' || format === 'csv';
};

/** Whether the run counts the input's lines (`countLines`): not for a tree's every path. */
const linesMeasured = (path: string, paths: string | undefined): boolean =>
  paths !== 'all' && countsLines(path);

/**
 * Lines in a text file, for the progress bar's total (JSONL and CSV), and
 * the first line holding bytes that are not UTF-8 (see utf8-watch.ts);
 * undefined for other formats.
 */
async function countLines(
  path: string,
): Promise<{ lines: number; notUtf8Line: number | undefined } | undefined> {
  if (!countsLines(path)) return undefined;
  let lines = 0;
  const utf8 = new Utf8Watch();
  try {
    for await (const chunk of fileChunks(path)) {
      const before = lines;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      utf8.feed(chunk, lines - before);
    }
    utf8.end();
  } catch {
    return undefined; // the reader reports an unreadable file, with its own clear message
  }
  return {
    // A CSV's (or TSV's) header is a line but no row.
    lines: formatFromPath(path) === 'csv' ? Math.max(0, lines - 1) : lines,
    notUtf8Line: utf8.firstBadLine,
  };
}

/** What identifies the engine of a model role across the shards of one run (never its key). */
function engineIdentity(engine: RoleEngine): string {
  if (engine.kind === 'upstream') {
    return `upstream ${engine.config.model ?? "(the server's only model)"} at ${engine.config.baseURL}`;
  }
  return engine.kind === 'unavailable' ? `unavailable: ${engine.message}` : engine.kind;
}

/**
 * Says so when the JSONL a run writes goes to a file named for another format (`--out x.csv`
 * without --write-back wrote JSON Lines under that name, silently).
 */
function warnOfJsonlUnderAnotherName(out: string | undefined, writeBack: boolean): void {
  if (out === undefined || writeBack) return;
  const format = formatFromPath(out);
  if (format !== undefined && format !== 'jsonl') {
    console.error(
      `note: ${out} gets JSON Lines (the samples with their result blocks), whatever its name; ` +
        "--write-back writes a fix's rows in the source's own format",
    );
  }
}

/**
 * `svc audit|fix|refine IN`: the operation over a whole file, with the engine in force. A SIGINT
 * or SIGTERM stops it, its half-written output removed, with one message and exit code.
 */
export function fileOperationCommand(operation: Operation, argv: string[]): Promise<void> {
  return Interruption.around((interruption) => fileOperation(operation, argv, interruption));
}

async function fileOperation(
  operation: Operation,
  argv: string[],
  interruption: Interruption,
): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    FILE_OPS_OPTIONS,
    true,
    FILE_OPS_TWICE_HINTS,
  );
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) {
    throw new AppError('invalid_request', `expected one input file\n\n${FILE_OPS_USAGE}`);
  }
  // `--out -` is stdout, as svc merge's OUT `-` is (it wrote a file named "-"); a shard's part and
  // --write-back's rows need a file, and say so.
  if (values.out === '-') values.out = undefined;
  warnOfJsonlUnderAnotherName(values.out, values['write-back'] === true);
  checkOutputTargets(
    [{ what: 'the input', path: input }],
    [
      { what: '--out', path: values.out },
      { what: '--report', path: values.report },
    ],
  );
  const config = configFrom(
    operation,
    parsePositiveInt(values.votes, '--votes'),
    parsePositiveInt(values['max-attempts'], '--max-attempts'),
  );
  const shape = shapeFromFlags(values);
  const mapping = mappingFromFlags(values);
  const paths = pathsFromFlags(values);
  if (values['write-back'] && operation === 'audit') {
    throw new AppError(
      'invalid_request',
      '--write-back applies to fix and refine: audit repairs nothing',
    );
  }
  if (values['write-back'] && values.out === undefined) {
    throw new AppError(
      'invalid_request',
      '--write-back needs --out CLEAN (its extension picks the format)',
    );
  }
  const shard = parseShard(values.shard);
  if (shard && values['write-back']) {
    throw new AppError(
      'invalid_request',
      '--shard writes a part for svc merge, not the source rows: --write-back needs the whole file in one run (run it without --shard)',
    );
  }
  if (shard && values.report !== undefined) {
    throw new AppError(
      'invalid_request',
      '--report is written by svc merge OUT PART... --report PATH: the dataset checks need the whole file',
    );
  }
  const conventions = values.conventions;
  if (conventions !== undefined) {
    const parsed = Conventions.safeParse(conventions);
    if (!parsed.success) throw validationError(parsed.error, '--conventions');
  }

  const dataDir = values['data-dir'] ?? process.env.SVC_DATA_DIR ?? defaultDataDir();
  const db = openDatabase(dataDir);
  const ctx = createServiceContext(db, dataDir, packageVersion());
  const settings = ctx.settings();
  const rates = settings.rates;
  // The owner's own run: its usage is recorded batch by batch, no credit is spent.
  const runId = `cli_${randomBytes(8).toString('hex')}`;
  const ownerUsage = new OwnerRunUsage(db, {
    id: runId,
    operation,
    label: basename(input) + (shard ? ` (shard ${shard.index}/${shard.of})` : ''),
    source: 'cli',
  });
  // One backend for the whole run; an upstream's failure stops it with its message.
  const backend = selectBackend(ctx);
  // JSON Lines on the builtin engine: the whole pass (reading, mapping, the dataset checks'
  // per-row work, the engine, serializing) runs in slices on the engine's workers, which start
  // now, while this thread goes on. SVC_FILE_PASS=rows keeps the row-at-a-time pass (the engine
  // alone on the workers): the bench compares the two.
  const pool =
    backend.id === 'builtin' && passRunsOnPool(input, values['write-back'] === true)
      ? filePassPool()
      : undefined;
  prestartFilePass(pool, { fileTasks: true, engine: true });
  const engines = resolveEngines(settings);
  if (backend.id !== 'builtin') {
    for (const line of describeEngines(engines)) console.error(`engine ${line}`);
  }

  // The dataset checks look at the whole file first; each batch's results get their verdicts.
  // A shard leaves them to svc merge, which has the whole file.
  const readOptions = { signal: interruption.signal, shape, mapping, paths };
  const contamination = {
    benchmarks: values.benchmarks ?? settings.contamination.benchmarks,
    against: (values.against ?? []).map((path) => resolve(path)),
  };
  let writeBack: WriteBack | undefined;
  const onMapping = (chosen: RowMapping): void => {
    if (mapping === undefined && chosen.shape !== 'sample') {
      console.error(`rows read as ${chosen.shape}${chosen.tree ? ', every path' : ''}`);
    }
    if (values['write-back'] && values.out !== undefined) {
      writeBack = openWriteBack(input, values.out, chosen);
    }
  };
  // Every path of a tree is a sample of its own: the file's lines do not count them. Counted
  // while the scan runs (it never fails: an unreadable file is the reader's to report); counted
  // after it, the whole file was read again between the scan and the run's first slice.
  const linesCounted = linesMeasured(input, paths) ? countLines(input) : Promise.resolve(undefined);
  let parallelMapping: RowMapping | undefined;
  // Opened before the scan: an output that cannot be written is refused before any work.
  const sink = values['write-back'] || shard ? undefined : openJsonlSink(values.out);
  // The scan reads the whole file before the run's first row: its own bar says how far it is.
  const scanBar = new ScanProgress(pool !== undefined || linesMeasured(input, paths));
  let checks: FileChecks | undefined;
  let parallel: Awaited<ReturnType<typeof scanFileInParallel>>;
  try {
    // A shard's pass runs on the workers too, without the scan of the whole file (svc merge's).
    parallel =
      pool && !shard
        ? await (
            await import('./parallel-scan.ts')
          ).scanFileInParallel(
            pool,
            input,
            // Told once the output is open, as the row-at-a-time pass tells it.
            {
              ...readOptions,
              onMapping: (chosen) => {
                parallelMapping = chosen;
              },
            },
            settings.dedup.threshold,
            contamination,
            {
              signal: interruption.signal,
              onScanned: (share, samples) => scanBar.update(share, samples),
            },
          )
        : undefined;
    if (!shard) {
      let lines: number | undefined;
      void linesCounted.then((counted) => (lines = counted?.lines));
      checks =
        parallel?.checks ??
        (await FileChecks.scan(
          input,
          readOptions,
          settings.dedup.threshold,
          await fileMatcher(contamination, readOptions),
          (row, samples) => scanBar.update(lines ? row / lines : 0, samples),
        ));
    }
    scanBar.done(checks?.samples ?? 0);
  } catch (error) {
    await sink?.discard();
    throw error;
  } finally {
    scanBar.stop();
  }

  // Results leave in input order: the JSONL of samples with their result blocks, the source's
  // own rows with the repairs written back (--write-back), or a shard's part.
  let part: PartWriter | undefined;
  let cleanRows: CleanRows | undefined;
  /** A shard's rows of the run's language sample, identified here (see ShardLanguageSample). */
  let languageSample: ShardLanguageSample | undefined;
  let contaminationActive = false;
  if (shard) {
    // Whether the contamination check runs decides the verdicts every row carries (merge checks).
    contaminationActive = (await fileMatcher(contamination, readOptions)) !== null;
    cleanRows = new CleanRows(operation, contaminationActive);
    const header: PartHeader = {
      svc_part: PART_FORMAT,
      version: packageVersion(),
      operation,
      shard: shard.index,
      of: shard.of,
      input: { path: resolve(input), ...(await inputFingerprint(input)) },
      read: { shape, mapping, paths },
      contamination,
      config,
      conventions: conventions ?? null,
      engines: Object.fromEntries(
        Object.entries(engines).map(([role, { engine }]) => [role, engineIdentity(engine)]),
      ),
      clean: cleanRows.checks,
      language_labels: true,
    };
    part = await openPartWriter(values.out, header);
    languageSample = new ShardLanguageSample();
    startLanguageIdentification();
    // The shard's share of the dataset checks' scan, beside its part: svc merge takes it.
    if (values.out !== undefined && values.out !== '-' && formatFromPath(input) === 'jsonl') {
      const { scanShardShare } = await import('./shard-scan.ts');
      const shareBar = new ScanProgress(true);
      try {
        const scanned = await scanShardShare(
          input,
          readOptions,
          settings.dedup.threshold,
          contamination,
          shard,
          values.out,
          interruption.signal,
          (share, samples) => shareBar.update(share, samples),
        );
        shareBar.done(scanned);
      } catch (error) {
        // The part is open: a scan share that failed or was interrupted leaves no half of it.
        await part.discard();
        throw error;
      } finally {
        shareBar.stop();
      }
    }
  }
  if (parallelMapping) onMapping(parallelMapping);
  const counted = await linesCounted;
  const lines = counted?.lines;
  if (counted?.notUtf8Line !== undefined) {
    console.error(
      `note: line ${counted.notUtf8Line} of ${input} (and maybe others) holds bytes that are not ` +
        'UTF-8: they are read as U+FFFD (\uFFFD), and the output (--write-back too) holds that ' +
        'in their place',
    );
  }
  const total = shard && lines !== undefined ? rowsOfShard(shard, lines) : lines;
  // Started at the first row, so an unreadable file gets its error without a progress line.
  let bar: cliProgress.SingleBar | undefined;
  const totals: Record<string, number> = {};
  const usage = new UsageMeter();
  const started = performance.now();
  const rateNow = (): string => (done / ((performance.now() - started) / 1000)).toFixed(0);
  let done = 0;
  let skipped = 0;
  /** The first row skipped, named when no row at all could be read. */
  let firstSkip: string | undefined;
  let pending: SampleRow[] = [];
  let batch: Sample[] = [];
  /** A shard's batch: each sample's position in the whole run's output and its source row. */
  let places: { position: number; row: number }[] = [];

  // Batches in flight while the next is read (see ordered-batches.ts). On the builtin engine
  // only: an upstream keeps the pace it had, one batch of requests at a time.
  const inFlight = new OrderedBatches<OperationResult | undefined>(
    backend.id === 'builtin' ? BATCHES_AHEAD : 0,
  );
  const flush = async (): Promise<void> => {
    const sent = { batch, pending, places };
    pending = [];
    batch = [];
    places = [];
    const request = { operation, samples: sent.batch, config, conventions } as OperationRequest;
    const work =
      sent.batch.length > 0
        ? runOperation(request, { backend, signal: interruption.signal })
        : Promise.resolve(undefined);
    await inFlight.send(work, (result) => finishBatch(sent, result));
  };
  const finishBatch = async (
    sent: { batch: Sample[]; pending: SampleRow[]; places: { position: number; row: number }[] },
    result: OperationResult | undefined,
  ): Promise<void> => {
    const outputs: ResultSample[] = [];
    if (result) {
      checks?.apply(result, done);
      // Recorded (usage, history) before its results are written.
      ownerUsage.recordBatch({
        usage: result.usage.byModel(),
        rates,
        input: sent.batch,
        output: result.data,
      });
      outputs.push(...result.data);
      addCounts(totals, result.counts);
      usage.merge(result.usage);
      done += sent.batch.length;
    }
    let next = 0;
    for (const item of sent.pending) {
      if ('error' in item) await writeBack?.skipped(item);
      else {
        const place = sent.places[next];
        const output = outputs[next++] as ResultSample;
        if (writeBack) await writeBack.write(item, output);
        else if (part && place && cleanRows) {
          await part.row(place.position, place.row, cleanRows.row(output, place.position));
        } else await sink?.write(output);
      }
    }
    bar?.update(done + skipped, { rate: rateNow(), skipped });
  };

  /**
   * The rows of a slice that are no sample, told and counted as skipped. On a
   * terminal the bar is stopped around each message, so that the message is
   * not drawn over; on a pipe the bar is a line every 2 s, and stopping and
   * starting it printed two more lines per skipped row (900 lines for 300),
   * their rate a literal `{rate}`.
   */
  const skipRows = (errors: readonly { row: number; error: string }[]): void => {
    const terminal = process.stderr.isTTY;
    for (const { row, error } of errors) {
      bar ??= progressBar(total);
      skipped++;
      firstSkip ??= `row ${row}: ${error}`;
      if (terminal) bar.stop();
      console.error(`row ${row}: ${error} (skipped)`);
      if (terminal) bar.start(bar.getTotal(), done + skipped, { rate: rateNow(), skipped });
      else bar.update(done + skipped, { rate: rateNow(), skipped });
    }
  };
  const showRate = (): void => {
    bar?.update(done + skipped, { rate: rateNow(), skipped });
  };

  /**
   * Slices of a pass on the workers, in the file's order, held until they add
   * up to RECORD_SAMPLES: their usage (and history) is recorded in one
   * transaction, then their rows written, as a batch is.
   */
  interface Held {
    usage: TakenRunSlice['usage'];
    history?: TakenRunSlice['history'];
    samples: number;
    write: () => Promise<void>;
  }
  let held: Held[] = [];
  let heldSamples = 0;
  const recordHeld = async (): Promise<void> => {
    if (heldSamples > 0) {
      const meter = new UsageMeter();
      for (const slice of held) meter.merge(meterOf(slice.usage));
      const histories = held.flatMap((slice) => (slice.history ? [slice.history] : []));
      ownerUsage.recordBatch({
        usage: meter.byModel(),
        rates,
        samples: heldSamples,
        input: new JsonText(joinJsonArrays(histories.map((h) => h.input))),
        output: new JsonText(joinJsonArrays(histories.map((h) => h.output))),
      });
    }
    for (const slice of held) await slice.write();
    held = [];
    heldSamples = 0;
  };
  const hold = async (slice: Held, counts: Record<string, number>): Promise<void> => {
    held.push(slice);
    heldSamples += slice.samples;
    addCounts(totals, counts);
    usage.merge(meterOf(slice.usage));
    done += slice.samples;
    if (heldSamples >= RECORD_SAMPLES) await recordHeld();
    showRate();
  };
  const takeSlice = async (result: TakenRunSlice): Promise<void> => {
    bar ??= progressBar(total);
    skipRows(result.errors);
    checks?.absorb(result.tally);
    await hold(
      {
        ...result,
        write: async () => {
          if (sink) await sink.writeBytes(result.output, result.release);
          else result.release();
        },
      },
      result.counts,
    );
  };
  /** A slice of a shard's pass on the workers, and how to write its part rows. */
  const takeShardSlice = async (
    result: ShardRunResult,
    write: () => Promise<void>,
  ): Promise<void> => {
    // The bar starts at the shard's first row, as the row-at-a-time pass starts it.
    if (result.at.length > 0) bar ??= progressBar(total);
    skipRows(result.errors);
    await hold({ ...result, samples: result.at.length, write }, result.counts);
  };

  try {
    const shardOnPool =
      shard !== undefined &&
      pool !== undefined &&
      part !== undefined &&
      cleanRows !== undefined &&
      languageSample !== undefined &&
      (await (
        await import('./shard-pass.ts')
      ).runShardOnPool(
        pool,
        input,
        { ...readOptions, onMapping },
        shard,
        {
          operation,
          config,
          conventions,
          contamination: contaminationActive,
          history: operation !== 'audit',
        },
        { part, cleanRows, languageSample },
        takeShardSlice,
        interruption.signal,
      ));
    if (shardOnPool) await recordHeld();
    if (parallel) {
      const run = { operation, config, conventions, checked: parallel.checks.found };
      const { runInParallel } = await import('../service/file-pass/parallel-pass.ts');
      await runInParallel(
        parallel.runner,
        parallel.file,
        { ...run, history: operation !== 'audit' },
        takeSlice,
      );
      await recordHeld();
    }
    const rows = parallel || shardOnPool ? [] : readSamples(input, { ...readOptions, onMapping });
    let position = 0; // of every sample read, in the whole run's output
    for await (const item of rows) {
      if (shard && 'sample' in item)
        languageSample?.see(item.sample, position, ownsRow(shard, item.row));
      if (shard && !ownsRow(shard, item.row)) {
        if ('sample' in item) position++;
        continue;
      }
      bar ??= progressBar(total);
      pending.push(item);
      if ('error' in item) {
        skipRows([item]);
        continue;
      }
      batch.push(item.sample);
      places.push({ position: position++, row: item.row });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await inFlight.drain();
    // Told to stop while the last batches were written: the output is not put in place.
    interruption.signal.throwIfAborted();
    // Rows, but not one sample among them: a wrong shape or mapping, not a clean run (it wrote an
    // empty file and exited 0). A shard may own only unreadable rows; the merge has them all.
    if (!shard && done === 0 && skipped > 0) {
      throw new AppError(
        'invalid_request',
        `none of the ${skipped} rows of ${input} could be read as samples, so nothing was written ` +
          `(first: ${firstSkip ?? 'none'}): check --shape, --task-type and --map`,
      );
    }
    // No rows at all (an empty file, blank lines, a CSV header alone): refused as the app's import
    // refuses it, rather than an empty output a pipeline would take for a clean run.
    if (!shard && done === 0 && skipped === 0) {
      throw new AppError('invalid_request', `${input} has no rows, so nothing was written`);
    }
    await sink?.close();
    await part?.close({
      samples: done,
      skipped,
      counts: totals,
      usage: usage.byModel(),
      cost_micro: tokenCostMicro(usage.byModel(), rates),
      run_id: runId,
      ...(cleanRows as CleanRows).counted(),
      languages: await (languageSample as ShardLanguageSample).labels(),
    });
    if (writeBack) {
      const { kept, lost } = await writeBack.close();
      for (const line of kept) console.error(line);
      if (lost > 0)
        console.error(`${lost} unreadable rows could not be written in the output's format`);
    }
  } catch (error) {
    // The batches or slices still in flight or held are dropped, neither written nor recorded
    // (the run failed; a shard's part is never renamed into place): stop their work. The
    // output's half-written file is removed, as a failed scan's and a failed merge's are (a
    // shard's scan share, complete, stays: a rerun replaces it).
    interruption.abort();
    await sink?.discard();
    await writeBack?.discard();
    await part?.discard();
    throw error;
  } finally {
    bar?.stop();
    db.close();
  }

  const seconds = (performance.now() - started) / 1000;
  const summary = summaryLines({
    operation,
    counts: totals,
    skipped,
    usage: usage.byModel(),
    costMicro: tokenCostMicro(usage.byModel(), rates),
    charged: `your own run, ${runId}`,
    samples: done,
    seconds,
  });
  for (const line of summary) console.error(line);
  if (values.out) console.error(`wrote ${values.out}`);
  if (!checks) {
    console.error(
      `shard ${shard?.index}/${shard?.of}: counts before the dataset checks, which svc merge runs on the whole file`,
    );
    return;
  }
  await printReport(await checks.report(), values.report);
}
