import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../src-shared/errors.ts';
import { unsynced } from '../../store/commit.ts';
import type { Db } from '../../store/db.ts';
import {
  insertKeyRow,
  keyRecordById,
  keyRecords,
  keyRowByHash,
  setKeyRevoked,
  touchKeyLastUsed,
  type KeyRecord,
} from '../../store/keys.ts';
import { OWNER_ACCOUNT_ID } from '../../store/ledger.ts';

export type { KeyRecord } from '../../store/keys.ts';

/**
 * API keys: `svc_` + 43 characters of base64url (32 random bytes). The key is
 * shown once, when made; the database keeps its SHA-256 and its first 12
 * characters for display. Authentication looks the key up by its hash and
 * compares the hashes again in constant time.
 */

export const KEY_PREFIX = 'svc_';
export const KEY_DISPLAY_PREFIX_LENGTH = 12;
export const KEY_NAME_MAX_LENGTH = 100;
/** `last_used_at` is written at most this often per key, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const KEY_PATTERN = /^svc_[A-Za-z0-9_-]{43}$/;

export const isKeyShaped = (value: string): boolean => KEY_PATTERN.test(value);

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface CreatedKey {
  /** The key itself: shown once, never stored. */
  key: string;
  record: KeyRecord;
}

export interface Principal {
  keyId: string;
  accountId: number;
}

function normaliseName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed.length > KEY_NAME_MAX_LENGTH) {
    throw new AppError(
      'invalid_request',
      `a key name has at most ${KEY_NAME_MAX_LENGTH} characters, got ${trimmed.length}`,
      { param: 'name' },
    );
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new AppError('invalid_request', 'a key name cannot contain control characters', {
      param: 'name',
    });
  }
  return trimmed;
}

export function createKey(db: Db, options: { name?: string; accountId?: number } = {}): CreatedKey {
  const name = normaliseName(options.name);
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const record = insertKeyRow(db, {
    id: 'key_' + randomBytes(8).toString('hex'),
    account_id: options.accountId ?? OWNER_ACCOUNT_ID,
    name,
    prefix: key.slice(0, KEY_DISPLAY_PREFIX_LENGTH),
    hash: hashKey(key),
  });
  return { key, record };
}

/** Every key, newest first, revoked ones included (their status is `revoked_at`). */
export function listKeys(db: Db): KeyRecord[] {
  return keyRecords(db);
}

/** Revokes a key; revoking it again is harmless and keeps the first `revoked_at`. */
export function revokeKey(db: Db, id: string, now: Date = new Date()): KeyRecord {
  const record = setKeyRevoked(db, id, now.toISOString());
  if (!record) throw new AppError('not_found', `no API key with id ${JSON.stringify(id)}`);
  return record;
}

export function getKey(db: Db, id: string): KeyRecord {
  const record = keyRecordById(db, id);
  if (!record) throw new AppError('not_found', `no API key with id ${JSON.stringify(id)}`);
  return record;
}

const refuse = (message: string): AppError => new AppError('invalid_api_key', message);

/**
 * The key's owner for an `Authorization` header value, or `invalid_api_key`
 * for a missing, malformed, unknown or revoked key. The presented key never
 * appears in a message (a revoked key is named by its stored display prefix).
 */
export function authenticate(
  db: Db,
  authorizationHeader: string | undefined,
  now: Date = new Date(),
): Principal {
  const header = authorizationHeader?.trim() ?? '';
  if (header === '') {
    throw refuse('missing API key: send the header "Authorization: Bearer svc_..."');
  }
  const match = /^Bearer[ \t]+(\S+)$/i.exec(header);
  const token = match?.[1];
  if (token === undefined) {
    throw refuse('the Authorization header must be "Bearer <API key>"');
  }
  if (!token.startsWith(KEY_PREFIX)) {
    throw refuse('this is not an svc API key: keys start with "svc_"');
  }
  const presented = createHash('sha256').update(token, 'utf8').digest();
  const row = isKeyShaped(token) ? keyRowByHash(db, presented.toString('hex')) : undefined;
  // The lookup is by hash, so the stored secret is never compared byte by byte
  // in variable time; the constant-time check below guards the match anyway.
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), presented)) {
    throw refuse('unknown API key: check the key, or create one with `svc keys create`');
  }
  if (row.revoked_at !== null) {
    throw refuse(`this API key (${row.prefix}...) was revoked at ${row.revoked_at}`);
  }
  const last = row.last_used_at === null ? 0 : Date.parse(row.last_used_at);
  if (now.getTime() - last >= LAST_USED_RESOLUTION_MS) {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    try {
      // Not fsync'd: a use a power cut forgets costs nothing, an fsync a minute per key does.
      unsynced(db, () => touchKeyLastUsed(db, row.id, now.toISOString(), staleBefore));
    } catch {
      // `last_used_at` is a convenience: a busy database must not fail the request.
    }
  }
  return { keyId: row.id, accountId: row.account_id };
}
