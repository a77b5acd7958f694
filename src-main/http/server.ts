import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { builtinBackend } from '../engine/builtin/backend.ts';
import type { EngineBackend } from '../engine/backend.ts';
import { releaseOpenHolds } from '../service/billing.ts';
import type { ServiceContext } from '../service/context.ts';
import { purgeHistory } from '../service/history.ts';
import { createOwnerHandlers, type ServerAddress } from '../service/owner-handlers.ts';
import { createHttpApp } from './app.ts';
import { OwnerSessions } from './owner-session.ts';

export interface StartServerOptions {
  ctx: ServiceContext;
  host: string;
  port: number;
  rendererDir: string | null;
  backend?: () => EngineBackend;
  keepAliveMs?: number;
}

const HOUR_MS = 60 * 60 * 1000;

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  sessions: OwnerSessions;
  /** A link that signs a browser in as the owner (one use). */
  ownerLink(): string;
  close(): Promise<void>;
}

export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host.startsWith('127.');

export function formatBaseUrl(host: string, port: number): string {
  const name = host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Starts the localhost server; resolves once it listens (port 0 picks a free port). */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  // A crash may have left holds open; history past its 30 days goes now and every hour.
  const released = releaseOpenHolds(options.ctx.db);
  if (released > 0) console.error(`released ${released} hold(s) left open by an earlier run`);
  purgeHistory(options.ctx.db);
  const purger = setInterval(() => purgeHistory(options.ctx.db), HOUR_MS);
  purger.unref();
  const sessions = new OwnerSessions();
  let livePort: number | null = null;
  const address = (): ServerAddress => ({
    host: options.host,
    port: livePort,
    url: livePort === null ? null : formatBaseUrl(options.host, livePort),
  });
  const app = createHttpApp({
    ctx: options.ctx,
    owner: createOwnerHandlers(options.ctx, address),
    sessions,
    rendererDir: options.rendererDir,
    boundHost: options.host,
    port: () => livePort,
    backend: options.backend ?? (() => builtinBackend),
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
  });

  return new Promise((resolve, reject) => {
    let server: ServerType | undefined = undefined;
    const onError = (error: Error): void => reject(error);
    server = serve(
      { fetch: app.fetch, hostname: options.host, port: options.port },
      (info: AddressInfo) => {
        livePort = info.port;
        server?.off('error', onError);
        const url = formatBaseUrl(options.host, info.port);
        resolve({
          url,
          host: options.host,
          port: info.port,
          sessions,
          ownerLink: () => `${url}/?token=${sessions.issueToken()}`,
          close: () =>
            new Promise<void>((done, fail) => {
              livePort = null;
              server?.close((error) => (error ? fail(error) : done()));
              if (server && 'closeAllConnections' in server) server.closeAllConnections();
            }),
        });
      },
    );
    server.once('error', onError);
  });
}
