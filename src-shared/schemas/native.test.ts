import { describe, expect, it } from 'vitest';
import { validationError } from '../errors.ts';
import { AuditRequest, RefineRequest } from './native.ts';

const sample = { task_type: 'text', text: 'hello' };

describe('native request envelopes', () => {
  it('requires a non-empty data array of at most 100 samples', () => {
    expect(AuditRequest.safeParse({ data: [] }).success).toBe(false);
    expect(AuditRequest.safeParse({}).success).toBe(false);
    expect(AuditRequest.safeParse({ data: Array(100).fill(sample) }).success).toBe(true);
    expect(AuditRequest.safeParse({ data: Array(101).fill(sample) }).success).toBe(false);
  });

  it('says which sample is malformed and where, as a JSON Pointer', () => {
    const result = AuditRequest.safeParse({ data: [sample, sample, { task_type: 'text' }] });
    expect(result.success).toBe(false);
    if (result.success) return;
    const error = validationError(result.error, 'request body');
    expect(error.errors?.[0]?.path).toBe('/data/2/text');
    expect(error.message).toContain('/data/2/text');
  });

  it('accepts conventions and a per-stage refine config', () => {
    const parsed = RefineRequest.parse({
      data: [sample],
      conventions: 'lowercase stems are intended',
      config: { fix: { max_attempts: 2 } },
    });
    expect(parsed.config?.fix.max_attempts).toBe(2);
    expect(parsed.config?.audit.votes).toBe(1);
  });
});
