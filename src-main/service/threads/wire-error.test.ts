import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from '../../../src-shared/errors.ts';
import { SampleError } from '../../engine/sample-error.ts';
import { decodeError, encodeError } from './wire-error.ts';

/** As a message crosses threads: a structured clone, which keeps no class. */
const crossed = (error: unknown): Error => decodeError(structuredClone(encodeError(error)), 4, 10);

const fieldError = fc.record({ path: fc.string(), message: fc.string() });

describe('an error crossing threads', () => {
  it('arrives as the AppError it was, every field kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ERROR_CODES),
        fc.string(),
        fc.option(fc.array(fieldError, { maxLength: 3 }), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (code, message, errors, param, retryAfterSeconds, publicMessage) => {
          const sent = new AppError(code, message, {
            ...(errors && { errors }),
            ...(param !== undefined && { param }),
            ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
            ...(publicMessage !== undefined && { publicMessage }),
          });
          const app = crossed(sent);
          if (!(app instanceof AppError)) throw new Error(`not an AppError: ${app.name}`);
          expect([app.code, app.message, app.errors, app.param]).toEqual([
            code,
            message,
            errors,
            param,
          ]);
          expect([app.retryAfterSeconds, app.publicMessage]).toEqual([
            retryAfterSeconds,
            publicMessage,
          ]);
        },
      ),
    );
  });

  it('names a failing sample by its place in the whole batch', () => {
    const got = crossed(new SampleError(2, 5, new TypeError('boom')));
    if (!(got instanceof SampleError)) throw new Error(`not a SampleError: ${got.name}`);
    expect(got.sampleIndex).toBe(6);
    expect(got.message).toBe('the engine failed on sample 7 of 10 in this batch: TypeError: boom');
  });

  it('keeps an unexpected error unexpected: no AppError, its name and message kept', () => {
    const got = crossed(new RangeError('out of range'));
    expect(got).not.toBeInstanceOf(AppError);
    expect([got.name, got.message]).toEqual(['RangeError', 'out of range']);
  });
});
