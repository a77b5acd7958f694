import { AppError } from '../../src-shared/errors.ts';
import { parseJsonExactBytes } from '../../src-shared/exact-json.ts';
import {
  type IpcResult,
  OWNER_METHODS,
  type OwnerBridge,
  type OwnerClient,
  type OwnerMethod,
} from '../../src-shared/owner-api.ts';

/** The Electron transport: the preload's bridge, whose results carry errors as values. */
export function ipcClient(bridge: OwnerBridge): OwnerClient {
  const call = async (method: OwnerMethod, input: unknown): Promise<unknown> => {
    const send = bridge[method] as (input: unknown) => Promise<IpcResult<unknown>>;
    const result = await send(input);
    if (!result.ok) throw new AppError(result.error.code, result.error.message);
    // A value main had as JSON already (a large row) is parsed here, off main's thread.
    return 'json' in result ? parseJsonExactBytes(result.json) : result.value;
  };
  return Object.fromEntries(
    OWNER_METHODS.map((method) => [method, (input: unknown) => call(method, input)]),
  ) as OwnerClient;
}
