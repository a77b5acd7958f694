import type { Db } from './db.ts';
import { statement } from './statements.ts';

/** An API key as stored: never the key itself, only its display prefix and SHA-256 hash. */
export interface KeyRow {
  id: string;
  account_id: number;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** What may be shown of a key: everything but the hash and the account. */
export interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const RECORD_COLUMNS = 'id, name, prefix, created_at, last_used_at, revoked_at';

export function insertKeyRow(
  db: Db,
  row: Pick<KeyRow, 'id' | 'account_id' | 'name' | 'prefix' | 'hash'>,
): KeyRecord {
  return statement(
    db,
    `INSERT INTO api_keys (id, account_id, name, prefix, hash)
       VALUES (@id, @account_id, @name, @prefix, @hash)
       RETURNING ${RECORD_COLUMNS}`,
  ).get(row) as KeyRecord;
}

export function keyRowByHash(db: Db, hash: string): KeyRow | undefined {
  return statement(db, 'SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
}

export function keyRecordById(db: Db, id: string): KeyRecord | undefined {
  return statement(db, `SELECT ${RECORD_COLUMNS} FROM api_keys WHERE id = ?`).get(id) as
    KeyRecord | undefined;
}

/** Every key, newest first. */
export function keyRecords(db: Db): KeyRecord[] {
  return statement(
    db,
    `SELECT ${RECORD_COLUMNS} FROM api_keys ORDER BY rowid DESC`,
  ).all() as KeyRecord[];
}

/** Marks a key revoked; a key revoked before keeps its first `revoked_at`. */
export function setKeyRevoked(db: Db, id: string, at: string): KeyRecord | undefined {
  return statement(
    db,
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?
       RETURNING ${RECORD_COLUMNS}`,
  ).get(at, id) as KeyRecord | undefined;
}

/**
 * Records a use of the key unless one was recorded after `staleBefore`; the
 * condition in the statement keeps this right across connections too.
 * Returns whether a row was written.
 */
export function touchKeyLastUsed(db: Db, id: string, at: string, staleBefore: string): boolean {
  const result = statement(
    db,
    `UPDATE api_keys SET last_used_at = ?
       WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
  ).run(at, id, staleBefore);
  return result.changes > 0;
}
