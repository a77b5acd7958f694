import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../builtin/backend.ts';
import { NO_CONVENTIONS, parseConventions } from '../conventions.ts';
import { auditSamples, fixSamples, refineSamples, type RunOptions } from '../operations.ts';

/** The engine with the builtin backend, as the tests call it. */
export const options = (conventions?: string): RunOptions => ({
  backend: builtinBackend,
  conventions: conventions === undefined ? NO_CONVENTIONS : parseConventions(conventions),
});

export const audit = (samples: Sample[], votes = 1, conventions?: string) =>
  auditSamples(samples, { votes }, options(conventions));
export const fix = (samples: Sample[], maxAttempts = 3, conventions?: string) =>
  fixSamples(samples, { max_attempts: maxAttempts }, options(conventions));
export const refine = (samples: Sample[], conventions?: string) =>
  refineSamples(
    samples,
    { audit: { votes: 1 }, fix: { max_attempts: 3 }, reaudit: { votes: 1 } },
    options(conventions),
  );
