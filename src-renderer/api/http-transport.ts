import { AppError, ERROR_CODES, type ErrorCode } from '../../src-shared/errors.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';
import {
  OWNER_HTTP_PREFIX,
  OWNER_METHODS,
  type OwnerClient,
  type OwnerMethod,
} from '../../src-shared/owner-api.ts';

const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);

/** The browser transport: `POST /owner/<method>` on the server that served this page. */
export function httpClient(baseUrl = ''): OwnerClient {
  const call = async (method: OwnerMethod, input: unknown): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${OWNER_HTTP_PREFIX}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
        credentials: 'same-origin',
      });
    } catch (error) {
      throw new AppError('service_unavailable', `the server cannot be reached: ${String(error)}`);
    }
    // Exact, as the server read the rows: an id past 2^53 shown or edited here stays that id.
    const body = (await response
      .text()
      .then(parseJsonExact)
      .catch(() => null)) as {
      detail?: string;
      code?: unknown;
    } | null;
    if (!response.ok) {
      const code = isErrorCode(body?.code) ? body.code : 'internal_error';
      throw new AppError(code, body?.detail ?? `HTTP ${response.status}`);
    }
    return body;
  };
  return Object.fromEntries(
    OWNER_METHODS.map((method) => [method, (input: unknown) => call(method, input)]),
  ) as OwnerClient;
}
