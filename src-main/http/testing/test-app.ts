import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { openDatabase } from '../../store/db.ts';
import {
  createServiceContext,
  type ServiceContext,
} from '../../service/context/service-context.ts';
import { createKey } from '../../service/billing/keys.ts';
import { OwnerEvents } from '../../service/owner/events.ts';
import { createHttpApp } from '../app.ts';
import { hostedOwnerHandlers } from '../owner-handlers.ts';
import { OwnerSessions } from '../owner-session.ts';
import { Transfers } from '../transfers.ts';

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
  const events = new OwnerEvents();
  const transfers = new Transfers(mkdtempSync(join(tmpdir(), 'svc-test-')));
  const backend = () => options.backend ?? builtinBackend;
  const app = createHttpApp({
    ctx,
    owner: hostedOwnerHandlers(ctx, {
      address: () => ({ host: '127.0.0.1', port: TEST_PORT, url: TEST_BASE }),
      events,
      backend,
      transfers,
    }),
    transfers,
    events,
    sessions,
    rendererDir: options.rendererDir ?? null,
    boundHost: '127.0.0.1',
    port: () => TEST_PORT,
    backend,
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
  return { app, ctx, db, sessions, events, transfers, request, key, post };
}
