import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../../../src-shared/schemas/sample.ts';
import { gsm8k } from '../../../engine/testing/real-data.ts';
import type { OperationRequest } from '../contract.ts';
import { EnginePool, PoolUnavailable, SHARE_TABLES_FROM, SliceFailed } from './pool.ts';
import type { FromWorker, ToWorker, WireResult } from './wire.ts';
import { o200kTableParts, o200kTablePartsIfReady } from '../../../engine/bpe/o200k.ts';
import { decodeRankFile, encodeRankFile } from '../../../engine/bpe/rank-file.ts';
import { RankTable, type RankTableParts } from '../../../engine/bpe/rank-table.ts';

const WORKER = new URL('./worker.ts', import.meta.url);
const audit = (samples: Sample[]): OperationRequest => ({
  operation: 'audit',
  samples,
  config: { votes: 1 },
});

const pools: EnginePool[] = [];
const pool = (script: URL, size: number): EnginePool => {
  const made = new EnginePool(script, size);
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('EnginePool', () => {
  it('serves a new batch first: a small one behind a large one waits for the slices handed out', async () => {
    const engine = pool(WORKER, 1);
    const samples = gsm8k();
    const large = Array.from({ length: 12 }, (_, i) => audit(samples.slice(i * 20, i * 20 + 20)));
    const landed: string[] = [];
    const first = engine.run(large, undefined, (index) => landed.push(`large ${index}`));
    const second = engine.run([audit(samples.slice(0, 5))], undefined, () => landed.push('small'));
    const [results] = await Promise.all([first, second]);
    // The worker holds two slices of the large batch (the running one and the next), no more.
    expect(landed.indexOf('small')).toBe(2);
    expect(results.map((r) => r.counts.samples)).toEqual(large.map((r) => r.samples.length));
    expect([...engine.slicesByThread.values()]).toEqual([13]);
  });

  it('keeps each worker two slices deep, and drops the queued slices of a cancelled batch', async () => {
    const engine = pool(WORKER, 2);
    const samples = gsm8k();
    const slices = Array.from({ length: 8 }, (_, i) => audit(samples.slice(i * 30, i * 30 + 30)));
    const controller = new AbortController();
    const cancelled = engine.run(slices, controller.signal, () => controller.abort());
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    // The pool stays usable: every slice of the cancelled batch was answered (run or dropped).
    const landed: number[] = [];
    const next = await engine.run(slices.slice(0, 4), undefined, (index) => landed.push(index));
    expect(next.map((r) => r.counts.samples)).toEqual([30, 30, 30, 30]);
    expect([...landed].sort()).toEqual([0, 1, 2, 3]);
    // At most 2 slices per worker were handed out before the cancel, plus the 4 of the next batch.
    const run = [...engine.slicesByThread.values()].reduce((a, b) => a + b, 0);
    expect(run).toBeLessThanOrEqual(4 + 4);
    expect(run).toBeGreaterThanOrEqual(4 + 1);
  });

  it('reports a failing slice with its index and the error as the worker saw it', async () => {
    const engine = pool(WORKER, 2);
    const samples = gsm8k().slice(0, 30);
    const broken = [...samples.slice(0, 9), { task_type: 'text', text: null } as unknown as Sample];
    const error = await engine
      .run([audit(samples), audit(broken)], undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SliceFailed);
    expect((error as SliceFailed).index).toBe(1);
    expect((error as SliceFailed).error).toMatchObject({ kind: 'sample', sampleIndex: 9 });
  });

  it('starts its workers before the first slice when asked, and runs the slices on them', async () => {
    const engine = pool(WORKER, 2);
    expect(engine.live).toBe(0);
    engine.prestart();
    engine.prestart();
    expect(engine.live).toBe(2);
    const samples = gsm8k();
    const slices = Array.from({ length: 4 }, (_, i) => audit(samples.slice(i * 10, i * 10 + 10)));
    const results = await engine.run(slices, undefined);
    expect(results.map((r) => r.counts.samples)).toEqual([10, 10, 10, 10]);
    // No worker beyond the two started: both took slices.
    expect(engine.live).toBe(2);
    expect(engine.slicesByThread.size).toBe(2);
  });

  it('runs the same slices alike on workers that loaded the engine ahead', async () => {
    const samples = gsm8k().slice(0, 40);
    const slices = [audit(samples.slice(0, 20)), audit(samples.slice(20))];
    const cold = pool(WORKER, 2);
    const warm = pool(WORKER, 2);
    warm.prestart({ engine: true });
    expect(warm.live).toBe(2);
    const [coldResults, warmResults] = await Promise.all([
      cold.run(slices, undefined),
      warm.run(slices, undefined),
    ]);
    expect(warmResults).toEqual(coldResults);
    expect(warm.live).toBe(2);
  });

  it('says it is unavailable when no worker can start, and stays so', async () => {
    const engine = pool(new URL('./no-such-worker.ts', import.meta.url), 2);
    await expect(engine.run([audit(gsm8k().slice(0, 3))], undefined)).rejects.toBeInstanceOf(
      PoolUnavailable,
    );
    expect(engine.unavailable).toBeInstanceOf(PoolUnavailable);
    await expect(engine.run([audit(gsm8k().slice(0, 3))], undefined)).rejects.toBeInstanceOf(
      PoolUnavailable,
    );
  });
});

describe('an engine worker retired before it is ready', () => {
  it('ends without loading the engine, and one told to work meanwhile still works', async () => {
    const retired = new Worker(WORKER, { name: 'svc-engine' });
    retired.postMessage({ type: 'retire' } satisfies ToWorker);
    const said: FromWorker[] = [];
    retired.on('message', (message: FromWorker) => said.push(message));
    const [code] = (await once(retired, 'exit')) as [number];
    expect(code).toBe(0);
    // It never became ready: the engine (and the code to serve it) was never loaded.
    expect(said).toEqual([]);

    const working = new Worker(WORKER, { name: 'svc-engine' });
    const samples = gsm8k().slice(0, 3);
    working.postMessage({ type: 'warm', engine: true, fileTasks: false } satisfies ToWorker);
    working.postMessage({
      type: 'run',
      id: 7,
      task: { kind: 'operation', request: audit(samples) },
    } satisfies ToWorker);
    const replies: FromWorker[] = [];
    await new Promise<void>((resolve) => {
      working.on('message', (message: FromWorker) => {
        replies.push(message);
        if (message.type !== 'ready') resolve();
      });
    });
    await working.terminate();
    expect(replies.map((reply) => reply.type)).toEqual(['ready', 'done']);
    expect(replies[1]).toMatchObject({ id: 7 });
  });
});

describe("the tokenizer's table sent to the engine's workers", () => {
  /** What a worker sent with `tables` (or none) counts for an audit of `samples`. */
  async function usageWith(o200k: RankTableParts | undefined, samples: Sample[]): Promise<unknown> {
    const worker = new Worker(WORKER, { name: 'svc-engine' });
    try {
      if (o200k) worker.postMessage({ type: 'tables', o200k } satisfies ToWorker);
      worker.postMessage({
        type: 'run',
        id: 1,
        task: { kind: 'operation', request: audit(samples) },
      } satisfies ToWorker);
      const reply = await new Promise<FromWorker>((resolve) => {
        worker.on('message', (message: FromWorker) => {
          if (message.type !== 'ready') resolve(message);
        });
      });
      if (reply.type !== 'done') throw new Error(`the worker answered ${JSON.stringify(reply)}`);
      return (reply.result as WireResult).usage;
    } finally {
      await worker.terminate();
    }
  }

  it("is built by the pool's thread for three workers or more, not for fewer", async () => {
    // No test before this one built it in this thread.
    expect(o200kTablePartsIfReady()).toBeUndefined();
    const few = pool(WORKER, SHARE_TABLES_FROM - 1);
    few.prestart({ engine: true });
    expect(o200kTablePartsIfReady()).toBeUndefined();
    const many = pool(WORKER, SHARE_TABLES_FROM);
    many.prestart({ engine: true });
    expect(o200kTablePartsIfReady()?.slots.buffer).toBeInstanceOf(SharedArrayBuffer);
    const samples = gsm8k().slice(0, 6);
    const slices = [audit(samples.slice(0, 3)), audit(samples.slice(3))];
    expect(await many.run(slices, undefined)).toEqual(await few.run(slices, undefined));
  });

  it("is the one a worker counts with: this thread's counts the same, a table of bytes alone more", async () => {
    const samples = gsm8k().slice(0, 5);
    const own = await usageWith(undefined, samples);
    expect(await usageWith(o200kTableParts(), samples)).toEqual(own);
    // Every byte a token of its own: a worker that adopted it counts every byte.
    const bytes = RankTable.build(
      decodeRankFile(encodeRankFile(Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)))),
      { shared: true },
    );
    const byByte = (await usageWith(bytes.parts, samples)) as Record<
      string,
      { input_tokens: number }
    >;
    const byToken = own as Record<string, { input_tokens: number }>;
    const model = Object.keys(byToken)[0] as string;
    expect(byByte[model]?.input_tokens).toBeGreaterThan(2 * (byToken[model]?.input_tokens ?? 0));
  });
});
