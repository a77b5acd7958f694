import { openDatabase } from '../../store/db.ts';
import { createServiceContext, type ServiceContext } from '../../service/context.ts';
import { createOwnerHandlers } from '../../service/owner-handlers.ts';
import { createHttpApp } from '../app.ts';
import { OwnerSessions } from '../owner-session.ts';

export const TEST_PORT = 7331;
export const TEST_BASE = `http://127.0.0.1:${TEST_PORT}`;

/** The real HTTP app over a real in-memory database, driven with `app.request()`. */
export function createTestApp(options: { rendererDir?: string | null } = {}) {
  const db = openDatabase(':memory:');
  const ctx: ServiceContext = createServiceContext(db, ':memory:', '0.0.0-test');
  const sessions = new OwnerSessions();
  const app = createHttpApp({
    ctx,
    owner: createOwnerHandlers(ctx, () => ({ host: '127.0.0.1', port: TEST_PORT, url: TEST_BASE })),
    sessions,
    rendererDir: options.rendererDir ?? null,
    boundHost: '127.0.0.1',
    port: () => TEST_PORT,
  });
  const request = (path: string, init?: RequestInit) => app.request(`${TEST_BASE}${path}`, init);
  return { app, ctx, db, sessions, request };
}
