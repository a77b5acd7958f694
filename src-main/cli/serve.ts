import { openDatabase } from '../store/db.ts';
import { describeEngines, resolveEngines } from '../service/runs/backend-select.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { WalKeeper } from '../service/datasets/wal-keeper.ts';
import { warmTokenizer } from '../engine/tokens.ts';
import { lowerHelperThreads } from '../service/threads/background-priority.ts';
import { loadBuiltinEngine } from '../engine/builtin/backend.ts';
import { loadFileFormats } from '../files/index.ts';
import { warmEngineHere } from '../service/runs/warm-engine.ts';
import { isWildcardHost, machineHostNames } from '../http/security.ts';
import { isLoopback, startServer } from '../http/server.ts';
import { parseCommandArgs, parsePort } from './args.ts';
import { defaultDataDir, packageVersion, RENDERER_DIR } from './paths.ts';

export const SERVE_USAGE = `usage: svc serve [--host 127.0.0.1] [--port 7331] [--data-dir DIR]
  env: SVC_HOST, SVC_PORT, SVC_DATA_DIR (flags win). --port 0 picks a free port.
  upstream models: SVC_UPSTREAM_URL, SVC_UPSTREAM_MODEL, SVC_UPSTREAM_KEY (see svc settings).`;

/** `svc serve`: the localhost service and the app's UI, until SIGINT/SIGTERM. */
export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    'data-dir': { type: 'string' },
  });
  const env = process.env;
  const host = values.host ?? env.SVC_HOST ?? '127.0.0.1';
  const port =
    values.port !== undefined
      ? parsePort(values.port, '--port')
      : env.SVC_PORT !== undefined
        ? parsePort(env.SVC_PORT, 'SVC_PORT')
        : 7331;
  const dataDir = values['data-dir'] ?? env.SVC_DATA_DIR ?? defaultDataDir();

  if (!isLoopback(host)) {
    console.error(
      `warning: binding ${host} exposes the service beyond this machine; ` +
        'anyone who can reach it and holds a key can spend your credit',
    );
  }
  // Before the server listens, so no request waits for its rank table (see engine/tokens.ts).
  warmTokenizer();
  // The builtin engine and the file formats load at their first use elsewhere; here, before
  // any request, for the same reason.
  await Promise.all([loadBuiltinEngine(), loadFileFormats()]);
  // And run once here: an estimate's first trial slices run on this thread (runs/warm-engine.ts).
  await warmEngineHere();
  const db = openDatabase(dataDir);
  // The WAL is copied into the database off the main thread (see service/datasets/wal-keeper.ts).
  const walKeeper = WalKeeper.start(db);
  // The server's main thread goes before V8's helper threads too (threads/background-priority.ts).
  lowerHelperThreads();
  const ctx = createServiceContext(db, dataDir, packageVersion());
  const keepAlive = env.SVC_KEEPALIVE_MS === undefined ? undefined : Number(env.SVC_KEEPALIVE_MS);
  const server = await startServer({
    ctx,
    host,
    port,
    rendererDir: RENDERER_DIR,
    ...(keepAlive !== undefined && keepAlive > 0 ? { keepAliveMs: keepAlive } : {}),
  });
  console.log(`listening on ${server.url}`);
  console.log(`open ${server.ownerLink()}`);
  if (isWildcardHost(host)) {
    const others = machineHostNames().filter((name) => !isLoopback(name.replace(/^\[|\]$/g, '')));
    console.error(
      `also answering on ${others.map((n) => `http://${n}:${server.port}`).join(', ')}`,
    );
  }
  // Which engine runs each model now (settings can change it while the server runs).
  for (const line of describeEngines(resolveEngines(ctx.settings(), env))) {
    console.error(`engine ${line}`);
  }

  const stop = (): void => {
    server
      .close()
      .catch((error: unknown) => console.error('error while closing:', error))
      .then(() => walKeeper?.stop())
      .catch((error: unknown) => console.error('error while closing:', error))
      .finally(() => {
        db.close();
        process.exit(0);
      });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
