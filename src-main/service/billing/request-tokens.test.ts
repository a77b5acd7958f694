import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { gsm8k, oasst } from '../../engine/testing/real-data.ts';
import { configureEngineWorkers, POOLED_CHARS } from '../runs/pool/pooled.ts';
import { restoreEnginePoolAfterEach, slicesRun } from '../runs/pool/testing/slices-run.ts';
import { requestTokens, sampleTokens } from './estimate.ts';

/**
 * A request's preflight counts its samples' tokens on an engine worker once
 * they hold POOLED_CHARS of text (the tokenizer read ~50 ms a MB on the
 * server's thread), with the counts the calling thread gives.
 */

restoreEnginePoolAfterEach();

describe('requestTokens', () => {
  it('counts a request of much text on a worker, each sample as here', async () => {
    configureEngineWorkers(2);
    const samples: Sample[] = [...gsm8k().slice(0, 40), ...oasst().slice(0, 20)];
    expect(JSON.stringify(samples).length).toBeGreaterThan(POOLED_CHARS);
    const before = slicesRun();
    const counted = await requestTokens(samples);
    expect(slicesRun()).toBe(before + 1);
    expect(counted).toEqual(sampleTokens(samples));
  });

  it('counts a request of little text here, at once', () => {
    configureEngineWorkers(2);
    const samples: Sample[] = [{ task_type: 'text', text: 'A few words.' }];
    const before = slicesRun();
    // Not a promise: the preflight of a small request adds no turn of the event loop.
    expect(requestTokens(samples)).toEqual(sampleTokens(samples));
    expect(slicesRun()).toBe(before);
  });
});
