import { chmodSync } from 'node:fs';
import { DEFAULT_SETTINGS, Settings } from '../../src-shared/schemas/settings.ts';
import type { Db } from './db.ts';
import { plucked, statement } from './statements.ts';

type Section = keyof Settings;

/**
 * Settings are read on every request, so they are cached per database and
 * re-read only when they may have changed: after a write through this module,
 * or when another connection (the CLI beside a running server) has written to
 * the database, which SQLite's `data_version` reveals cheaply.
 */
const cache = new WeakMap<Db, { version: number; writes: number; settings: Settings }>();
let localWrites = 0;

export function readSettings(db: Db): Settings {
  // A cached statement (a `db.pragma` call would prepare one every time): unlike the pragmas
  // that set a value, data_version is read when the statement runs, not when it is prepared.
  const version = plucked(db, 'PRAGMA data_version').get() as number;
  const cached = cache.get(db);
  if (cached && cached.version === version && cached.writes === localWrites) return cached.settings;
  const settings = readSettingsFromDb(db);
  cache.set(db, { version, writes: localWrites, settings });
  return settings;
}

/** Settings are stored one JSON document per section; missing sections take their defaults. */
function readSettingsFromDb(db: Db): Settings {
  const rows = statement(db, 'SELECT key, value FROM settings').all() as {
    key: string;
    value: string;
  }[];
  const stored: Record<string, unknown> = {};
  for (const row of rows) stored[row.key] = JSON.parse(row.value);
  const merged = {
    rates: { ...DEFAULT_SETTINGS.rates, ...(stored.rates as object | undefined) },
    limits: { ...DEFAULT_SETTINGS.limits, ...(stored.limits as object | undefined) },
    server: { ...DEFAULT_SETTINGS.server, ...(stored.server as object | undefined) },
    upstream: { ...DEFAULT_SETTINGS.upstream, ...(stored.upstream as object | undefined) },
    dedup: { ...DEFAULT_SETTINGS.dedup, ...(stored.dedup as object | undefined) },
    engine: { ...DEFAULT_SETTINGS.engine, ...(stored.engine as object | undefined) },
    contamination: {
      ...DEFAULT_SETTINGS.contamination,
      ...(stored.contamination as object | undefined),
    },
  };
  return Settings.parse(merged);
}

export function writeSettingsSection<S extends Section>(
  db: Db,
  section: S,
  value: Settings[S],
): void {
  const validated = Settings.shape[section].parse(value);
  statement(
    db,
    `INSERT INTO settings (key, value) VALUES (?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  ).run(section, JSON.stringify(validated));
  localWrites++;
  // The upstream section may hold an API key: the database is the owner's alone.
  if (section === 'upstream') restrictToOwner(db);
}

/**
 * Makes the database file (and its WAL and shared-memory files, which SQLite
 * creates with the database's own mode) readable by the owner only: 0600.
 */
export function restrictToOwner(db: Db): void {
  if (db.memory || process.platform === 'win32') return;
  for (const file of [db.name, `${db.name}-wal`, `${db.name}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
