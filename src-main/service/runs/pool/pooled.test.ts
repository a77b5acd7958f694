import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-shared/errors.ts';
import { DEFAULT_SETTINGS } from '../../../../src-shared/schemas/settings.ts';
import type { Sample } from '../../../../src-shared/schemas/sample.ts';
import type { EngineBackend } from '../../../engine/backend.ts';
import { builtinBackend } from '../../../engine/builtin/backend.ts';
import { SampleError } from '../../../engine/sample-error.ts';
import {
  commonsenseQa,
  ftfyCases,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../../../engine/testing/real-data.ts';
import { chargeMicro, tokenCostMicro } from '../../billing/money.ts';
import type { OperationRequest, OperationResult } from '../contract.ts';
import { runOperation, runOperationInThread } from '../operation.ts';
import {
  closeEnginePool,
  configureEngineWorkers,
  enginePoolSlices,
  holdsChars,
  MIN_POOLED_SAMPLES,
  POOLED_CHARS,
  shouldPool,
  sliceStarts,
} from './pooled.ts';
import { restoreEnginePoolAfterEach, slicesRun } from './testing/slices-run.ts';

/** Every task type of the shipped real datasets, interleaved so each slice gets a mix. */
function realSamples(count: number): Sample[] {
  const corpora: Sample[][] = [
    gsm8k(),
    hellaswag(),
    oasst(),
    truthfulQa(),
    commonsenseQa(),
    ftfyCases().wild.map((c) => ({ task_type: 'text' as const, text: c.original })),
  ];
  const out: Sample[] = [];
  for (let i = 0; out.length < count; i++) {
    const corpus = corpora[i % corpora.length] as Sample[];
    out.push(corpus[Math.floor(i / corpora.length) % corpus.length] as Sample);
  }
  return out;
}

const REQUESTS: Record<OperationRequest['operation'], (samples: Sample[]) => OperationRequest> = {
  audit: (samples) => ({ operation: 'audit', samples, config: { votes: 2 } }),
  fix: (samples) => ({ operation: 'fix', samples, config: { max_attempts: 3 } }),
  refine: (samples) => ({
    operation: 'refine',
    samples,
    config: { audit: { votes: 1 }, fix: { max_attempts: 2 }, reaudit: { votes: 1 } },
  }),
};

/** What a caller gets out of a result: the data, counts, usage and what it is charged. */
function observable(result: OperationResult): string {
  const byModel = result.usage.byModel();
  return JSON.stringify({
    data: result.data,
    counts: result.counts,
    usage: byModel,
    total: result.usage.total(),
    charge: chargeMicro(tokenCostMicro(byModel, DEFAULT_SETTINGS.rates)),
    audits: result.operation === 'fix' ? result.audits : undefined,
  });
}

restoreEnginePoolAfterEach(() => {
  delete process.env.SVC_ENGINE_WORKERS;
});

describe('the engine pool behind runOperation', () => {
  it.each(['audit', 'fix', 'refine'] as const)(
    '%s of real data on worker threads equals the run in one thread: results, usage, charge',
    async (operation) => {
      configureEngineWorkers(2);
      const request = REQUESTS[operation](realSamples(operation === 'audit' ? 300 : 240));
      expect(shouldPool(request, builtinBackend)).toBe(true);
      const before = slicesRun();
      const progress: number[] = [];
      const pooled = await runOperation(request, {
        backend: builtinBackend,
        onProgress: (done) => progress.push(done),
      });
      const single = await runOperationInThread(request, { backend: builtinBackend });
      expect(slicesRun()).toBeGreaterThan(before + 1);
      expect(enginePoolSlices().size).toBeGreaterThanOrEqual(2);
      expect(observable(pooled)).toBe(observable(single));
      expect(pooled.data.length).toBe(request.samples.length);
      // Real work on both sides: failures found, and repairs made where the operation repairs.
      const counts = pooled.counts as unknown as Record<string, number>;
      if (operation === 'audit') expect(counts.failed).toBeGreaterThan(0);
      else expect(counts.changed).toBeGreaterThan(0);
      expect(progress.at(-1)).toBe(request.samples.length);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    },
  );

  it('rebuilds an audit from the samples sent, without the blocks a previous run left', async () => {
    const samples = realSamples(120).map((sample, i) =>
      i % 3 === 0 ? { ...sample, audit: { stale: true }, fix: { old: 1 } } : sample,
    );
    const request = REQUESTS.audit(samples);
    const pooled = await runOperation(request, { backend: builtinBackend });
    const single = await runOperationInThread(request, { backend: builtinBackend });
    expect(observable(pooled)).toBe(observable(single));
    expect(pooled.data.some((sample) => 'fix' in sample)).toBe(false);
  });

  it('cuts a batch into contiguous slices, smaller towards its end', () => {
    for (const [samples, workers] of [
      [16, 2],
      [1000, 1],
      [1000, 2],
      [5000, 8],
    ] as const) {
      const starts = sliceStarts(samples, workers);
      const sizes = starts.map((start, i) => (starts[i + 1] ?? samples) - start);
      expect(starts[0]).toBe(0);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(samples);
      expect(sizes.every((size) => size > 0 && size <= 128)).toBe(true);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    }
    expect(sliceStarts(1000, 2).length).toBeGreaterThan(16);
  });

  it('names a failing sample by its place in the whole batch, as one thread would', async () => {
    const samples = realSamples(100);
    samples[77] = { task_type: 'text', text: null } as unknown as Sample;
    const request = REQUESTS.audit(samples);
    const error = await runOperation(request, { backend: builtinBackend }).catch((e: unknown) => e);
    const single = await runOperationInThread(request, { backend: builtinBackend }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SampleError);
    expect((error as SampleError).sampleIndex).toBe(77);
    expect((error as Error).message).toBe((single as Error).message);
    expect(((error as Error).cause as Error).name).toBe('TypeError');
  });

  it('stops on the signal at once, and the pool serves the next batch', async () => {
    const request = REQUESTS.audit(realSamples(3000));
    const controller = new AbortController();
    const started = performance.now();
    const running = runOperation(request, {
      backend: builtinBackend,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    expect(performance.now() - started).toBeLessThan(10_000);
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      runOperation(request, { backend: builtinBackend, signal: aborted.signal }),
    ).rejects.toBeInstanceOf(AppError);
    const next = REQUESTS.audit(realSamples(64));
    const after = await runOperation(next, { backend: builtinBackend });
    expect(observable(after)).toBe(
      observable(await runOperationInThread(next, { backend: builtinBackend })),
    );
  });

  it('keeps small batches, other backends and a setting of 0 workers in the calling thread', () => {
    const small = REQUESTS.audit(realSamples(MIN_POOLED_SAMPLES - 1));
    const large = REQUESTS.audit(realSamples(MIN_POOLED_SAMPLES));
    expect(shouldPool(small, builtinBackend)).toBe(false);
    expect(shouldPool(large, builtinBackend)).toBe(true);
    const other: EngineBackend = { ...builtinBackend, id: 'upstream' };
    expect(shouldPool(large, other)).toBe(false);
    // (The server's routes wrap the backend for key holders: http/public-errors.test.ts.)
    configureEngineWorkers(0);
    expect(shouldPool(large, builtinBackend)).toBe(false);
    process.env.SVC_ENGINE_WORKERS = '3';
    expect(shouldPool(large, builtinBackend)).toBe(true);
  });

  it('sends a batch of few samples to the pool once it holds POOLED_CHARS of text', async () => {
    const text = (chars: number): Sample => ({ task_type: 'text', text: 'a'.repeat(chars) });
    // ("text", the task type, counts too: every string value does.)
    expect(shouldPool(REQUESTS.audit([text(POOLED_CHARS - 5)]), builtinBackend)).toBe(false);
    expect(shouldPool(REQUESTS.audit([text(POOLED_CHARS)]), builtinBackend)).toBe(true);
    // Counted over every field of every sample: two halves of a transcript are the whole.
    const half = 'b'.repeat(POOLED_CHARS / 2);
    const turns: Sample = {
      task_type: 'conversation',
      messages: [
        { role: 'user', content: half },
        { role: 'assistant', content: half },
      ],
      turns: 'all',
    };
    expect(shouldPool(REQUESTS.audit([turns]), builtinBackend)).toBe(true);
    // One document of real sentences, as a person edits one in the review: run on a worker,
    // with the result of a run here.
    const sentences = realSamples(400)
      .flatMap((sample) =>
        sample.task_type === 'text'
          ? [sample.text]
          : sample.task_type === 'question_answer'
            ? [sample.question, sample.answer]
            : [],
      )
      .join('\n\n');
    expect(sentences.length).toBeGreaterThanOrEqual(POOLED_CHARS);
    const request = REQUESTS.audit([{ task_type: 'text', text: sentences }]);
    // A fresh pool: slices an earlier test's failed or cancelled batch had handed out still
    // land after it rejected, and would be counted here on a slow machine.
    await closeEnginePool();
    const pooled = await runOperation(request, { backend: builtinBackend });
    expect(slicesRun()).toBe(1);
    expect(observable(pooled)).toBe(
      observable(await runOperationInThread(request, { backend: builtinBackend })),
    );
  });
});

describe('holdsChars', () => {
  /** Every string value's length, keys left out. */
  const charsOf = (value: unknown): number =>
    typeof value === 'string'
      ? value.length
      : typeof value === 'object' && value !== null
        ? Object.values(value).reduce<number>((sum, item) => sum + charsOf(item), 0)
        : 0;

  it('is whether the values’ strings reach the limit, whatever their nesting', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.integer({ min: 1, max: 400 }), (values, limit) => {
        const total = values.reduce<number>((sum, value) => sum + charsOf(value), 0);
        expect(holdsChars(values, limit)).toBe(total >= limit);
      }),
      { numRuns: 500 },
    );
  });
});
