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

/**
 * The server's pushed owner events (`GET /owner-events`, server-sent events),
 * each given to `onEvent` as it comes, until the returned stop is called.
 */
export function ownerEvents(
  server: SvcServer,
  cookie: string,
  onEvent: (event: Record<string, unknown>) => void,
): () => void {
  const abort = new AbortController();
  void (async () => {
    const res = await fetch(`${server.baseUrl}/owner-events`, {
      headers: { cookie: `svc_session=${cookie}` },
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`owner-events: ${res.status}`);
    const decoder = new TextDecoder();
    let pending = '';
    const reader = res.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pending += decoder.decode(read.value, { stream: true });
      let end = pending.indexOf('\n\n');
      for (; end >= 0; end = pending.indexOf('\n\n')) {
        const message = pending.slice(0, end);
        pending = pending.slice(end + 2);
        for (const line of message.split('\n')) {
          if (line.startsWith('data:')) {
            onEvent(JSON.parse(line.slice(5).trim()) as Record<string, unknown>);
          }
        }
      }
    }
  })().catch((error: unknown) => {
    if (!abort.signal.aborted) console.error('owner-events:', error);
  });
  return () => abort.abort();
}
