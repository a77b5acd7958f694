import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src-main/http/server.ts';
import { grant } from '../src-main/service/billing/billing.ts';
import { createServiceContext } from '../src-main/service/context/service-context.ts';
import { createKey } from '../src-main/service/billing/keys.ts';
import { openDatabase, type Db } from '../src-main/store/db.ts';
import { writeSettingsSection } from '../src-main/store/settings.ts';
import { DEFAULT_SETTINGS } from '../src-shared/schemas/settings.ts';

export interface BenchServer {
  url: string;
  key: string;
  db: Db;
  /** Closes the server, then its database. */
  close(): Promise<void>;
}

/**
 * A real svc server on a free port, its database in `dataDir` (a fresh
 * temporary folder by default), with credit that never runs out and per-key
 * limits high enough that the bench measures the work, not the 429s.
 * `configure` writes any other settings before the server starts.
 */
export async function startBenchServer(
  dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-')),
  configure: (db: Db) => void = () => undefined,
): Promise<BenchServer> {
  const db = openDatabase(dataDir);
  const ctx = createServiceContext(db, dataDir, 'bench');
  writeSettingsSection(db, 'limits', {
    ...DEFAULT_SETTINGS.limits,
    requests_per_minute_native: 100_000,
    requests_per_minute_v1: 100_000,
  });
  configure(db);
  grant(db, 1, 1_000_000_000, 'bench credit');
  const key = createKey(db, { name: 'bench' }).key;
  const server = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
  return {
    url: server.url,
    key,
    db,
    close: async () => {
      await server.close();
      db.close();
    },
  };
}
