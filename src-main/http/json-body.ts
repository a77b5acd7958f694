import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, validationError } from '../../src-shared/errors.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A body this long or longer is decoded, parsed and validated in a turn of
 * the event loop each: 1 MB sent to `/audit` took ~7 ms to decode and more to
 * parse and validate, one turn in all, while other requests waited. Counted
 * by size, not by a clock: a clock started before the body came would count
 * the other requests served meanwhile, and small bodies would give up turns
 * they do not need.
 */
const LARGE_BODY_CHARS = 64 * 1024;

/** Reads the body as JSON; malformed JSON is a validation error, not a 500. */
export async function readJson(c: Context): Promise<unknown> {
  return (await parseBodyText(c)).json;
}

/** The body parsed, and whether it was large (its next step then waits a turn too). */
async function parseBodyText(c: Context): Promise<{ json: unknown; large: boolean }> {
  const text = await c.req.text();
  if (text.trim() === '') throw new AppError('invalid_request', 'request body is empty');
  const large = text.length >= LARGE_BODY_CHARS;
  if (large) await nextTurn();
  try {
    return { json: parseJsonExact(text), large };
  } catch (error) {
    throw new AppError('invalid_request', `malformed JSON: ${(error as Error).message}`);
  }
}

export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  what = 'request body',
): Promise<z.output<S>> {
  const { json, large } = await parseBodyText(c);
  if (large) await nextTurn();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error, what);
  return parsed.data;
}
