import type { SvcServer } from '../e2e/fixtures.ts';

/** Calls one owner handler of a real `svc serve` and returns its JSON answer. */
export type OwnerCall = <T = Record<string, unknown>>(method: string, input: unknown) => Promise<T>;

/**
 * A caller of a server's owner handlers (`POST /owner/<method>`) under a
 * signed-in session (`signIn`'s cookie). An answer that is not 2xx is an
 * error naming the handler and the status.
 */
export function ownerCaller(server: SvcServer, cookie: string): OwnerCall {
  return async <T>(method: string, input: unknown): Promise<T> => {
    const res = await fetch(`${server.baseUrl}/owner/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `svc_session=${cookie}` },
      body: JSON.stringify(input),
    });
    if (!res.ok) throw new Error(`${method}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<T>;
  };
}
