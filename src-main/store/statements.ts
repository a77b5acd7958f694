import type Database from 'better-sqlite3';
import type { Db } from './db.ts';

export type Statement = Database.Statement;

/**
 * Statements prepared once per connection. Preparing is the expensive part of
 * a small query (parsing, planning, compiling the ledger's triggers into the
 * program: ~75 µs for a prepare and a get where the cached statement runs in
 * ~6 µs), and a request runs a dozen of them. The cache is keyed by the
 * connection (a closed one is collected with its statements) and by the SQL
 * text, so a call site reads as before: `statement(db, 'SELECT ...').get(x)`.
 *
 * Rules for callers: pass constant SQL (or one of a few fixed variants),
 * never values spliced into the text (they go in as parameters), or the
 * cache grows without bound; and never toggle a cached statement's modes
 * (`pluck`, `raw`, `expand`): another caller of the same SQL would inherit
 * them. Use `plucked` for a single-column read. SQLite re-prepares a cached
 * statement by itself when the schema changes (a migration), so it never
 * goes stale.
 */
const caches = new WeakMap<Db, Map<string, Statement>>();

function cacheOf(db: Db): Map<string, Statement> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

export function statement(db: Db, sql: string): Statement {
  const cache = cacheOf(db);
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}

/** A cached statement returning its first column only (kept apart from `statement`'s). */
export function plucked(db: Db, sql: string): Statement {
  const key = `pluck:${sql}`;
  const cache = cacheOf(db);
  let prepared = cache.get(key);
  if (!prepared) {
    prepared = db.prepare(sql).pluck();
    cache.set(key, prepared);
  }
  return prepared;
}

/** How many statements a connection holds prepared (for tests). */
export function preparedCount(db: Db): number {
  return caches.get(db)?.size ?? 0;
}
