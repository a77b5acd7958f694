import { builtinBackend } from '../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { openDatabase } from '../../store/db.ts';
import { createServiceContext, type ServiceContext } from '../../service/context.ts';
import { createKey } from '../../service/keys.ts';
import { createOwnerHandlers } from '../../service/owner-handlers.ts';
import { createHttpApp } from '../app.ts';
import { OwnerSessions } from '../owner-session.ts';

export const TEST_PORT = 7331;
export const TEST_BASE = `http://127.0.0.1:${TEST_PORT}`;

export interface TestAppOptions {
  rendererDir?: string | null;
  backend?: EngineBackend;
  keepAliveMs?: number;
  dataDir?: string;
}

/** The real HTTP app over a real database, driven with `app.request()`. */
export function createTestApp(options: TestAppOptions = {}) {
  const dataDir = options.dataDir ?? ':memory:';
  const db = openDatabase(dataDir);
  const ctx: ServiceContext = createServiceContext(db, dataDir, '0.0.0-test');
  const sessions = new OwnerSessions();
  const app = createHttpApp({
    ctx,
    owner: createOwnerHandlers(ctx, () => ({ host: '127.0.0.1', port: TEST_PORT, url: TEST_BASE })),
    sessions,
    rendererDir: options.rendererDir ?? null,
    boundHost: '127.0.0.1',
    port: () => TEST_PORT,
    backend: () => options.backend ?? builtinBackend,
    keepAliveMs: options.keepAliveMs ?? 50,
  });
  const request = (path: string, init?: RequestInit) => app.request(`${TEST_BASE}${path}`, init);
  const key = (): string => createKey(db, { name: 'test' }).key;
  /** A JSON POST with a key. */
  const post = (
    path: string,
    body: unknown,
    apiKey: string,
    headers: Record<string, string> = {},
  ) =>
    request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { app, ctx, db, sessions, request, key, post };
}
