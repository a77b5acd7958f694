import { AppError } from '../../src-shared/errors.ts';
import {
  OWNER_METHODS,
  type OwnerBridge,
  type OwnerClient,
  type OwnerMethod,
} from '../../src-shared/owner-api.ts';

/** The Electron transport: the preload's bridge, whose results carry errors as values. */
export function ipcClient(bridge: OwnerBridge): OwnerClient {
  const call = async (method: OwnerMethod, input: unknown): Promise<unknown> => {
    const send = bridge[method] as (
      input: unknown,
    ) => Promise<
      | { ok: true; value: unknown }
      | { ok: false; error: { code: AppError['code']; message: string } }
    >;
    const result = await send(input);
    if (!result.ok) throw new AppError(result.error.code, result.error.message);
    return result.value;
  };
  return Object.fromEntries(
    OWNER_METHODS.map((method) => [method, (input: unknown) => call(method, input)]),
  ) as OwnerClient;
}
