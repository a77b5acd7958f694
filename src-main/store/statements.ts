import type Database from 'better-sqlite3';
import { setMostRecent } from '../../src-shared/recent-map.ts';

export type Statement = Database.Statement;
/** A connection (db.ts's Db, named here so that migrate.ts, which db.ts imports, can use this). */
type Db = Database.Database;

/**
 * Statements prepared once per connection: the one way the store runs SQL.
 * Preparing is the expensive part of a small query (parsing, planning,
 * compiling the ledger's triggers into the program: ~75 µs for a prepare and
 * a get where the cached statement runs in ~6 µs), and a request runs a dozen
 * of them. The cache is keyed by the connection (a closed one is collected
 * with its statements) and by the SQL text, which names the statement: a
 * call site reads as before, `statement(db, 'SELECT ...').get(x)`.
 *
 * Rules for callers: pass constant SQL (or one of a few fixed variants),
 * never values spliced into the text (they go in as parameters), or the
 * cache grows without bound; SQL composed per call from parts (a grid
 * filter) goes through `composed`, which keeps only the recent ones. Never
 * toggle a cached statement's modes (`pluck`, `raw`, `expand`): another
 * caller of the same SQL would inherit them. Use `plucked` for a
 * single-column read. SQLite re-prepares a cached statement by itself when
 * the schema changes (a migration), so it never goes stale.
 */
const caches = new WeakMap<Db, Map<string, Statement>>();

function cacheOf(db: Db, of: WeakMap<Db, Map<string, Statement>> = caches): Map<string, Statement> {
  let cache = of.get(db);
  if (!cache) {
    cache = new Map();
    of.set(db, cache);
  }
  return cache;
}

/** The key of a plucked statement: kept apart from the same SQL's row-returning one. */
const pluckKey = (sql: string): string => `pluck:${sql}`;

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
  const key = pluckKey(sql);
  const cache = cacheOf(db);
  let prepared = cache.get(key);
  if (!prepared) {
    prepared = db.prepare(sql).pluck();
    cache.set(key, prepared);
  }
  return prepared;
}

/**
 * How many composed statements a connection keeps. The grid composes its
 * queries from a filter's clauses, a sort's index and a dataset's search
 * table: the same few recur while a user pages through a filter, but over
 * the life of a server their number has no fixed bound.
 */
export const COMPOSED_KEPT = 128;

const composedCaches = new WeakMap<Db, Map<string, Statement>>();

function cachedComposed(db: Db, key: string, prepare: () => Statement): Statement {
  const cache = cacheOf(db, composedCaches);
  const prepared = cache.get(key) ?? prepare();
  setMostRecent(cache, key, prepared, COMPOSED_KEPT);
  return prepared;
}

/**
 * A statement whose SQL is composed per call from parts (a filter's clauses,
 * an index's name, a search table's): prepared once per connection like
 * `statement`'s, the COMPOSED_KEPT most recently used kept.
 */
export function composed(db: Db, sql: string): Statement {
  return cachedComposed(db, sql, () => db.prepare(sql));
}

/** A composed statement returning its first column only. */
export function composedPlucked(db: Db, sql: string): Statement {
  return cachedComposed(db, pluckKey(sql), () => db.prepare(sql).pluck());
}

/** How many statements a connection holds prepared (for tests). */
export function preparedCount(db: Db): number {
  return (caches.get(db)?.size ?? 0) + (composedCaches.get(db)?.size ?? 0);
}
