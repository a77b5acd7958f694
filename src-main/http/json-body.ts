import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, validationError } from '../../src-shared/errors.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';
import { TurnClock } from '../service/threads/turn-clock.ts';

/** Reads the body as JSON; malformed JSON is a validation error, not a 500. */
export async function readJson(c: Context, clock = new TurnClock()): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new AppError('invalid_request', 'request body is empty');
  // Decoding and parsing a large body are a turn each (turn-clock.ts); a small one, one turn.
  await clock.breathe();
  try {
    return parseJsonExact(text);
  } catch (error) {
    throw new AppError('invalid_request', `malformed JSON: ${(error as Error).message}`);
  }
}

export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  what = 'request body',
): Promise<z.output<S>> {
  const clock = new TurnClock();
  const json = await readJson(c, clock);
  await clock.breathe();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error, what);
  return parsed.data;
}
