import { describe, expect, it } from 'vitest';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../engine/builtin/backend.ts';
import { MIN_POOLED_SAMPLES, shouldPool } from '../service/runs/pool/pooled.ts';
import { withPublicErrors } from './public-errors.ts';

describe('withPublicErrors', () => {
  it('leaves the builtin engine itself, so key holders’ large requests still use the pool', () => {
    const samples: Sample[] = Array.from({ length: MIN_POOLED_SAMPLES }, (_, i) => ({
      task_type: 'text',
      text: `Sample ${i}.`,
    }));
    const large = { operation: 'audit' as const, samples, config: { votes: 1 } };
    expect(withPublicErrors(builtinBackend)).toBe(builtinBackend);
    expect(shouldPool(large, withPublicErrors(builtinBackend))).toBe(true);
  });
});
