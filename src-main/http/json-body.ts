import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, validationError } from '../../src-shared/errors.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';

/** Reads the body as JSON; malformed JSON is a validation error, not a 500. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new AppError('invalid_request', 'request body is empty');
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
  const parsed = schema.safeParse(await readJson(c));
  if (!parsed.success) throw validationError(parsed.error, what);
  return parsed.data;
}
