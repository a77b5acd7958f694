import { AppError, toErrorPayload, validationError } from '../../../src-shared/errors.ts';
import {
  type IpcResult,
  ownerApi,
  OWNER_METHODS,
  type OwnerMethod,
} from '../../../src-shared/owner-api.ts';
import { EncodedJson } from './encoded-json.ts';
import type { OwnerHandlers } from './handler-types.ts';

export const isOwnerMethod = (name: string): name is OwnerMethod =>
  (OWNER_METHODS as string[]).includes(name);

/**
 * Runs one owner call from an untrusted transport (IPC): validates the input
 * against the contract, runs the handler, and returns errors as values. It
 * never throws: an unexpected failure is logged once and reported as
 * `internal_error`.
 */
export async function dispatchOwnerCall(
  handlers: OwnerHandlers,
  method: OwnerMethod,
  input: unknown,
): Promise<IpcResult<unknown>> {
  try {
    const parsed = ownerApi[method].input.safeParse(input ?? {});
    if (!parsed.success) throw validationError(parsed.error, `input of ${method}`);
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    const answer = await handler(parsed.data);
    return answer instanceof EncodedJson
      ? { ok: true, json: answer.bytes }
      : { ok: true, value: answer };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: toErrorPayload(error) };
    console.error(`owner call ${method} failed:`, error);
    return {
      ok: false,
      error: { code: 'internal_error', message: `${method} failed unexpectedly` },
    };
  }
}
