import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { SIGNATURE_CACHE_MIGRATIONS } from './migrations/signature-cache/index.ts';
import { plucked, statement } from './statements.ts';

/**
 * The near-duplicate signatures a dataset scan computed, kept so that a scan
 * after a few fixes hashes only the rows whose sample changed. A cache beside
 * the app database (`svc-signatures.sqlite`, rebuilt when lost: no fsync),
 * written by the scan's own thread: stored on the app database, a signature
 * was an update of the row's wide record from the main thread, ~8 µs a row of
 * the server's thread and the whole row written to the WAL again.
 *
 * Each signature carries a key of the sample it was computed from
 * (`sampleKey`: 0 for the imported sample, else a digest of the accepted
 * fix), so a row whose sample in force changed since is simply hashed again:
 * nothing writing the app database needs to know the cache exists.
 *
 * The app database's `dedup_sig` column (migration 6), where they were kept
 * before, is neither read nor written any more: dropping it would rewrite
 * every row of every dataset at start-up.
 *
 * An in-memory app database (tests) has no file beside it: its cache is a
 * map in memory, for the connection's life.
 */

export const SIGNATURE_FILE = 'svc-signatures.sqlite';

/** Signatures of some rows, packed: row `rows[i]` (its sample's key `keys[i]`) has words [i * length, (i + 1) * length). */
export interface PackedSignatures {
  rows: number[];
  keys: number[];
  words: Uint32Array<ArrayBuffer>;
  length: number;
}

/** What a row's sample in force is made of: an accepted fix, else the import. */
interface SampleInForce {
  decision: 'accepted' | 'rejected' | null;
  fixed_json: string | null;
}

/**
 * The key of a row's sample in force: 0 for the imported sample (which never
 * changes), else the first 48 bits of an MD5 of the accepted fix (a cache's
 * key, not a security boundary).
 */
export function sampleKey(row: SampleInForce): number {
  if (row.decision !== 'accepted' || row.fixed_json === null) return 0;
  return createHash('md5').update(row.fixed_json).digest().readUIntBE(0, 6) + 1;
}

/** A stored signature: the key of the sample it was computed from, and its words. */
export interface StoredSignature {
  key: number;
  sig: Buffer;
}

/** An in-memory app database's cache: per dataset, per row. */
type MemoryCache = Map<string, Map<number, StoredSignature>>;
const inMemory = new WeakMap<Db, MemoryCache>();

function memoryCacheOf(db: Db): MemoryCache {
  let cache = inMemory.get(db);
  if (!cache) {
    cache = new Map();
    inMemory.set(db, cache);
  }
  return cache;
}

/** Where a scan keeps signatures: the cache file's writing connection, or an in-memory database's map. */
export type SignatureCache = { file: Db } | { memory: MemoryCache };

/** The cache beside the app database (its file made if missing): the one writing connection. */
export function openSignatureCache(db: Db): SignatureCache {
  if (db.memory) return { memory: memoryCacheOf(db) };
  const cache = new Database(join(dirname(db.name), SIGNATURE_FILE));
  cache.pragma('journal_mode = WAL');
  // A cache: rebuilt if lost, so no fsync per transaction.
  cache.pragma('synchronous = OFF');
  cache.pragma('busy_timeout = 10000');
  migrate(cache, SIGNATURE_CACHE_MIGRATIONS);
  return { file: cache };
}

export function closeSignatureCache(cache: SignatureCache): void {
  if ('file' in cache) cache.file.close();
}

/** Per reading connection: its cache's reading connection (none while the file does not exist). */
const readers = new WeakMap<Db, Db>();

function readerOf(db: Db): Db | undefined {
  const known = readers.get(db);
  if (known) return known;
  const file = join(dirname(db.name), SIGNATURE_FILE);
  if (!existsSync(file)) return undefined;
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  readers.set(db, reader);
  return reader;
}

/** The signatures kept of a dataset's rows (after, through], read through `db`'s cache. */
export function storedSignatures(
  db: Db,
  datasetId: string,
  after: number,
  through: number,
): Map<number, StoredSignature> {
  const out = new Map<number, StoredSignature>();
  if (db.memory) {
    for (const [row, stored] of memoryCacheOf(db).get(datasetId) ?? []) {
      if (row > after && row <= through) out.set(row, stored);
    }
    return out;
  }
  const reader = readerOf(db);
  if (!reader) return out;
  const rows = statement(
    reader,
    `SELECT row_index, sample_key, sig FROM signatures
       WHERE dataset_id = ? AND row_index > ? AND row_index <= ?`,
  ).all(datasetId, after, through) as { row_index: number; sample_key: number; sig: Buffer }[];
  for (const row of rows) out.set(row.row_index, { key: row.sample_key, sig: row.sig });
  return out;
}

/** Keeps a scan's fresh signatures (one transaction), through the cache's writing connection. */
export function saveSignatures(
  cache: SignatureCache,
  datasetId: string,
  packed: PackedSignatures,
): void {
  if (packed.rows.length === 0) return;
  const { rows, keys, words, length } = packed;
  const sigOf = (i: number): Buffer =>
    Buffer.from(words.buffer, words.byteOffset + i * length * 4, length * 4);
  if ('memory' in cache) {
    const rowsOf = cache.memory.get(datasetId) ?? new Map<number, StoredSignature>();
    cache.memory.set(datasetId, rowsOf);
    // Copied: the words' buffer may be reused or moved by the caller.
    rows.forEach((row, i) =>
      rowsOf.set(row, { key: keys[i] as number, sig: Buffer.from(sigOf(i)) }),
    );
    return;
  }
  const db = cache.file;
  const insert = statement(
    db,
    `INSERT OR REPLACE INTO signatures (dataset_id, row_index, sample_key, sig)
       VALUES (?, ?, ?, ?)`,
  );
  db.transaction(() => {
    statement(db, 'INSERT OR IGNORE INTO cached (dataset_id) VALUES (?)').run(datasetId);
    rows.forEach((row, i) => insert.run(datasetId, row, keys[i], sigOf(i)));
  })();
}

/** Drops the signatures of the datasets not among `live` (deleted ones). */
export function pruneSignatures(cache: SignatureCache, live: ReadonlySet<string>): void {
  if ('memory' in cache) {
    for (const id of cache.memory.keys()) if (!live.has(id)) cache.memory.delete(id);
    return;
  }
  const db = cache.file;
  const cached = plucked(db, 'SELECT dataset_id FROM cached').all() as string[];
  for (const id of cached) {
    if (live.has(id)) continue;
    db.transaction(() => {
      statement(db, 'DELETE FROM signatures WHERE dataset_id = ?').run(id);
      statement(db, 'DELETE FROM cached WHERE dataset_id = ?').run(id);
    })();
  }
}
