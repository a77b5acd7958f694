import { describe, expect, it } from 'vitest';
import { RefineConfig } from '../../../src-shared/schemas/config.ts';
import { Sample } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { runOperationInThread } from './operation.ts';
import { WARM_SAMPLES, warmEngineHere } from './warm-engine.ts';

describe('the engine warmed before the server listens', () => {
  it('runs on a valid sample of every task type', async () => {
    for (const sample of WARM_SAMPLES) expect(Sample.safeParse(sample).success).toBe(true);
    expect(new Set(WARM_SAMPLES.map((s) => s.task_type))).toEqual(
      new Set(['text', 'multiple_choice', 'question_answer', 'conversation']),
    );
    await expect(warmEngineHere()).resolves.toBeUndefined();
  });

  it('gives the fixers something to fix, so that they run too', async () => {
    const result = await runOperationInThread(
      { operation: 'refine', samples: WARM_SAMPLES, config: RefineConfig.parse({}) },
      { backend: builtinBackend },
    );
    expect(result.operation === 'refine' && result.counts.changed).toBeGreaterThan(0);
  });
});
