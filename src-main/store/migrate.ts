import type Database from 'better-sqlite3';
import { plucked, statement } from './statements.ts';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/**
 * Applies the migrations the database has not seen, in order, each in its own
 * immediate transaction (checking under the lock that no other process
 * applied it meanwhile), recording each in `schema_migrations`. Refuses a
 * database written by a newer version of the app rather than guessing.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  )`);
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration versions must be 1..n, found ${m.version}`);
  });
  const row = statement(db, 'SELECT max(version) AS v FROM schema_migrations').get() as {
    v: number | null;
  };
  const current = row.v ?? 0;
  if (current > sorted.length) {
    throw new Error(
      `database schema version ${current} is newer than this app knows (${sorted.length})`,
    );
  }
  const applied: number[] = [];
  const record = statement(db, 'INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
  const done = plucked(db, 'SELECT 1 FROM schema_migrations WHERE version = ?');
  for (const m of sorted.slice(current)) {
    db.transaction(() => {
      // Another process opening the same database at once (two CLI runs) may have applied it
      // since the version was read: checked again under the write lock.
      if (done.get(m.version) !== undefined) return;
      db.exec(m.up);
      record.run(m.version, m.name);
      applied.push(m.version);
    }).immediate();
  }
  return applied;
}
