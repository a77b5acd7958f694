import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { gsm8k, truthfulQa } from '../../engine/testing/real-data.ts';
import { runOperationInThread } from '../runs/operation.ts';
import { configureEngineWorkers, POOLED_CHARS } from '../runs/pool/pooled.ts';
import { restoreEnginePoolAfterEach, slicesRun } from '../runs/pool/testing/slices-run.ts';
import { applyDatasetChecks } from './request.ts';

/**
 * An API request's dataset checks run on an engine worker once the request
 * holds POOLED_CHARS of text, with the verdicts a run in the calling thread
 * gives: duplicates named by their place in the request, benchmark items
 * found.
 */

/** GSM8K's and TruthfulQA's test questions (benchmark items), some twice, as a request sends them. */
function requestSamples(count: number): Sample[] {
  const items = [...gsm8k().slice(0, count / 2), ...truthfulQa().slice(0, count / 2)];
  return [...items, ...items.slice(0, 5)];
}

async function checked(samples: Sample[]): Promise<string> {
  const result = await runOperationInThread(
    { operation: 'audit', samples, config: { votes: 1 } },
    { backend: builtinBackend },
  );
  await applyDatasetChecks(result, samples, { threshold: 0.8, benchmarks: 'all' });
  return JSON.stringify({ data: result.data, counts: result.counts });
}

restoreEnginePoolAfterEach();

describe('applyDatasetChecks', () => {
  it('checks a request of much text on a worker, as the calling thread would', async () => {
    const samples = requestSamples(60);
    expect(JSON.stringify(samples).length).toBeGreaterThan(POOLED_CHARS);
    configureEngineWorkers(0);
    const here = await checked(samples);
    configureEngineWorkers(2);
    const before = slicesRun();
    const there = await checked(samples);
    expect(slicesRun()).toBe(before + 1);
    expect(there).toBe(here);
    // What the checks found is in both: the repeats by their place, the benchmarks' items.
    expect(here).toContain('data[0]');
    expect(here).toContain('benchmark_overlap');
  });

  it('keeps a request of little text in the calling thread', async () => {
    configureEngineWorkers(2);
    const samples: Sample[] = [
      { task_type: 'text', text: 'A short one.' },
      { task_type: 'text', text: 'A short one.' },
    ];
    const before = slicesRun();
    const result = await checked(samples);
    expect(slicesRun()).toBe(before);
    expect(result).toContain('exact_duplicate');
  });

  it('flags a refined duplicate as a fixed one: it still fails after the fix stage', async () => {
    const samples: Sample[] = [
      { task_type: 'text', text: 'The committee met on Tuesday to review the budget.' },
      { task_type: 'text', text: 'The committee met on Tuesday to review the budget.' },
      { task_type: 'text', text: 'A different sentence about the weather in spring.' },
    ];
    const requests = [
      { operation: 'fix', samples, config: { max_attempts: 3 } },
      {
        operation: 'refine',
        samples,
        config: { audit: { votes: 1 }, fix: { max_attempts: 3 }, reaudit: { votes: 1 } },
      },
    ] as const;
    for (const request of requests) {
      const { operation } = request;
      const result = await runOperationInThread(request, { backend: builtinBackend });
      await applyDatasetChecks(result, samples, { threshold: 0.8, benchmarks: 'none' });
      expect(
        result.data.map((sample) => sample.fix?.flagged ?? false),
        operation,
      ).toEqual([false, true, false]);
      expect(result.counts, operation).toMatchObject({ flagged: 1 });
      if (operation === 'refine') {
        expect(result.data[1]?.fix).toEqual({ changes: [], flagged: true, attempts: 0 });
        expect(result.counts).toMatchObject({ failed_before: 1, failed_after: 1 });
      }
    }
  });
});
