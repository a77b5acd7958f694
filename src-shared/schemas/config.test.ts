import { describe, expect, it } from 'vitest';
import { AuditConfig, Conventions, FixConfig, RefineConfig } from './config.ts';

describe('stage configs', () => {
  it.each([1, 5, 9])('accepts votes = %s', (votes) => {
    expect(AuditConfig.parse({ votes })).toEqual({ votes });
  });
  it.each([0, 10, 2.5, '3', -1, null])('rejects votes = %s', (votes) => {
    expect(AuditConfig.safeParse({ votes }).success).toBe(false);
  });
  it.each([1, 3, 5])('accepts max_attempts = %s', (max_attempts) => {
    expect(FixConfig.parse({ max_attempts })).toEqual({ max_attempts });
  });
  it.each([0, 6, 1.5, '2', -3])('rejects max_attempts = %s', (max_attempts) => {
    expect(FixConfig.safeParse({ max_attempts }).success).toBe(false);
  });
  it('fills defaults: votes 1, max_attempts 3', () => {
    expect(AuditConfig.parse({})).toEqual({ votes: 1 });
    expect(FixConfig.parse({})).toEqual({ max_attempts: 3 });
    expect(RefineConfig.parse({})).toEqual({
      audit: { votes: 1 },
      fix: { max_attempts: 3 },
      reaudit: { votes: 1 },
    });
  });
  it('checks each refine stage with its own ranges', () => {
    expect(RefineConfig.safeParse({ fix: { max_attempts: 9 } }).success).toBe(false);
    expect(RefineConfig.safeParse({ reaudit: { votes: 0 } }).success).toBe(false);
    expect(RefineConfig.parse({ audit: { votes: 3 } }).audit.votes).toBe(3);
  });
  it('rejects unknown config members (a typo must not be silently ignored)', () => {
    expect(AuditConfig.safeParse({ vote: 3 }).success).toBe(false);
    expect(RefineConfig.safeParse({ audits: {} }).success).toBe(false);
  });
  it('limits conventions to 4,000 characters', () => {
    expect(Conventions.safeParse('x'.repeat(4000)).success).toBe(true);
    expect(Conventions.safeParse('x'.repeat(4001)).success).toBe(false);
  });
});
