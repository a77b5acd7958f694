import { describe, expect, it, vi } from 'vitest';
import { Sample } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { WARM_SAMPLES, warmEngineHere } from './warm-engine.ts';

describe('the engine warmed before the server listens', () => {
  it('is a valid sample of every task type', () => {
    for (const sample of WARM_SAMPLES) expect(Sample.safeParse(sample).success).toBe(true);
    expect(new Set(WARM_SAMPLES.map((s) => s.task_type))).toEqual(
      new Set(['text', 'multiple_choice', 'question_answer', 'conversation']),
    );
  });

  it('refines every sample, and the fixers and the re-audit run too', async () => {
    const counts = await warmEngineHere();
    expect(counts?.samples).toBe(WARM_SAMPLES.length);
    expect(counts?.failed_before).toBeGreaterThan(0);
    expect(counts?.changed).toBeGreaterThan(0);
  });

  it('never stops the start: a failure is told and the server goes on', async () => {
    const audit = vi.spyOn(builtinBackend, 'audit').mockRejectedValue(new Error('broken rule'));
    const told = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(warmEngineHere()).resolves.toBeUndefined();
      const [said, error] = (told.mock.calls[0] ?? []) as unknown[];
      expect(String(said)).toContain('could not be warmed up');
      expect((error as Error).message).toContain('broken rule');
    } finally {
      audit.mockRestore();
      told.mockRestore();
    }
  });
});
