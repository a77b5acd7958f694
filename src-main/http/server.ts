import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { EngineBackend } from '../engine/backend.ts';
import { selectBackend } from '../service/runs/backend-select.ts';
import { releaseOpenHolds } from '../service/billing/billing.ts';
import type { ServiceContext } from '../service/context/service-context.ts';
import { purgeHistory } from '../service/runs/history.ts';
import { OwnerEvents } from '../service/owner/events.ts';
import type { ServerAddress } from '../service/owner/handler-types.ts';
import { createHttpApp } from './app.ts';
import { hostedOwnerHandlers } from './owner-handlers.ts';
import { OwnerSessions } from './owner-session.ts';
import { isWildcardHost } from './security.ts';
import { Transfers } from './transfers.ts';

export interface StartServerOptions {
  ctx: ServiceContext;
  host: string;
  port: number;
  rendererDir: string | null;
  /** The engine backend per request; default: the one settings and environment select. */
  backend?: () => EngineBackend;
  keepAliveMs?: number;
  /** Import and run progress for the UI (Electron passes its own, so its window hears it too). */
  events?: OwnerEvents;
  /** The browser transport's uploads and downloads; default: a new temporary folder. */
  transfers?: Transfers;
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

/**
 * The base URL to print and show: the bound address, or for a wildcard bind
 * (0.0.0.0, ::) loopback, which works from this machine (the LAN addresses
 * are printed beside it by `svc serve`).
 */
export function formatBaseUrl(host: string, port: number): string {
  if (isWildcardHost(host)) return `http://127.0.0.1:${port}`;
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
  const backend = options.backend ?? (() => selectBackend(options.ctx));
  const events = options.events ?? new OwnerEvents();
  // A transfer folder of its own is the server's to delete when it closes.
  const ownTransfers = options.transfers === undefined;
  const transfers = options.transfers ?? new Transfers(mkdtempSync(join(tmpdir(), 'svc-')));
  const app = createHttpApp({
    ctx: options.ctx,
    owner: hostedOwnerHandlers(options.ctx, { address, events, backend, transfers }),
    transfers,
    events,
    sessions,
    rendererDir: options.rendererDir,
    boundHost: options.host,
    port: () => livePort,
    backend,
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
              clearInterval(purger);
              if (ownTransfers) transfers.dispose();
              server?.close((error) => (error ? fail(error) : done()));
              if (server && 'closeAllConnections' in server) server.closeAllConnections();
            }),
        });
      },
    );
    server.once('error', onError);
  });
}
