import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { DB_FILE_NAME, openDatabase } from '../../store/db.ts';
import { authenticate, createKey, getKey, hashKey, listKeys, revokeKey } from './keys.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The AppError `work` throws (failing the test when it throws nothing or something else). */
function appErrorOf(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

describe('createKey', () => {
  it('makes svc_ + 43 base64url characters, with a display prefix and a key_ id', () => {
    const db = openDatabase(':memory:');
    const { key, record } = createKey(db, { name: '  ci runner ' });
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(record.prefix).toBe(key.slice(0, 12));
    expect(record.id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(record.name).toBe('ci runner');
    expect(record).toEqual({
      id: record.id,
      name: 'ci runner',
      prefix: record.prefix,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      last_used_at: null,
      revoked_at: null,
    });
    const other = createKey(db);
    expect(other.key).not.toBe(key);
    expect(other.record.name).toBe('');
  });

  it('stores only the SHA-256 of the key: the plaintext is nowhere in the database files', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    const { key, record } = createKey(db, { name: 'secret-check' });
    const stored = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(record.id) as Record<
      string,
      unknown
    >;
    expect(stored.hash).toBe(hashKey(key));
    expect(Object.values(stored)).not.toContain(key);
    const secret = key.slice(12); // the part not shown as the prefix
    const files = () =>
      [DB_FILE_NAME, `${DB_FILE_NAME}-wal`]
        .map((name) => join(dir, name))
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file));
    // While open (the row sits in the WAL) and after a checkpoint on close.
    const whileOpen = Buffer.concat(files());
    expect(whileOpen.includes(hashKey(key))).toBe(true); // the search can see the row at all
    expect(whileOpen.includes(key)).toBe(false);
    expect(whileOpen.includes(secret)).toBe(false);
    db.close();
    const afterClose = Buffer.concat(files());
    expect(afterClose.includes(hashKey(key))).toBe(true);
    expect(afterClose.includes(secret)).toBe(false);
  });

  it('refuses over-long names and control characters', () => {
    const db = openDatabase(':memory:');
    expect(appErrorOf(() => createKey(db, { name: 'x'.repeat(101) })).code).toBe('invalid_request');
    expect(appErrorOf(() => createKey(db, { name: 'a\nb' })).code).toBe('invalid_request');
    expect(listKeys(db)).toEqual([]);
  });
});

describe('authenticate', () => {
  it('accepts the key as a Bearer token and names its owner', () => {
    const db = openDatabase(':memory:');
    const { key, record } = createKey(db);
    expect(authenticate(db, `Bearer ${key}`)).toEqual({ keyId: record.id, accountId: 1 });
    expect(authenticate(db, `bearer   ${key}  `)).toEqual({ keyId: record.id, accountId: 1 });
  });

  it.each([
    ['missing', undefined, /missing API key/],
    ['empty', '   ', /missing API key/],
    ['not Bearer', 'Basic dXNlcjpwYXNz', /must be "Bearer <API key>"/],
    ['Bearer without a token', 'Bearer', /must be "Bearer <API key>"/],
    ['two tokens', 'Bearer svc_a svc_b', /must be "Bearer <API key>"/],
    ['not svc_', 'Bearer sk-proj-abcdef', /keys start with "svc_"/],
    ['malformed svc_', 'Bearer svc_short', /unknown API key/],
    ['unknown', `Bearer svc_${'A'.repeat(43)}`, /unknown API key/],
  ])('refuses a %s key with invalid_api_key', (_case, header, message) => {
    const db = openDatabase(':memory:');
    createKey(db);
    const error = appErrorOf(() => authenticate(db, header));
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toMatch(message);
  });

  it('refuses a revoked key without echoing it', () => {
    const db = openDatabase(':memory:');
    const { key, record } = createKey(db);
    const kept = createKey(db);
    revokeKey(db, record.id);
    const error = appErrorOf(() => authenticate(db, `Bearer ${key}`));
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toMatch(/revoked/);
    expect(error.message).not.toContain(key);
    expect(authenticate(db, `Bearer ${kept.key}`).keyId).toBe(kept.record.id);
  });

  it('writes last_used_at at most once a minute per key', () => {
    const db = openDatabase(':memory:');
    const { key, record } = createKey(db);
    const lastUsed = () => getKey(db, record.id).last_used_at;
    const t0 = Date.parse('2025-05-01T10:00:00.000Z');
    const writes = () => db.prepare('SELECT total_changes() AS n').get() as { n: number };
    authenticate(db, `Bearer ${key}`, new Date(t0));
    expect(lastUsed()).toBe('2025-05-01T10:00:00.000Z');
    const before = writes().n;
    for (let s = 1; s < 60; s += 7) authenticate(db, `Bearer ${key}`, new Date(t0 + s * 1000));
    expect(writes().n).toBe(before); // no write at all within the minute
    expect(lastUsed()).toBe('2025-05-01T10:00:00.000Z');
    authenticate(db, `Bearer ${key}`, new Date(t0 + 60_000));
    expect(lastUsed()).toBe('2025-05-01T10:01:00.000Z');
  });
});

describe('listKeys and revokeKey', () => {
  it('lists newest first with no hash, and revoking twice keeps the first time', () => {
    const db = openDatabase(':memory:');
    const a = createKey(db, { name: 'a' }).record;
    const b = createKey(db, { name: 'b' }).record;
    expect(listKeys(db).map((k) => k.name)).toEqual(['b', 'a']);
    expect(listKeys(db)[0]).not.toHaveProperty('hash');
    const first = revokeKey(db, a.id, new Date('2025-01-01T00:00:00Z'));
    expect(first.revoked_at).toBe('2025-01-01T00:00:00.000Z');
    const again = revokeKey(db, a.id, new Date('2025-06-01T00:00:00Z'));
    expect(again.revoked_at).toBe('2025-01-01T00:00:00.000Z');
    expect(getKey(db, b.id).revoked_at).toBeNull();
  });

  it('answers not_found for an unknown id', () => {
    const db = openDatabase(':memory:');
    expect(appErrorOf(() => revokeKey(db, 'key_nope')).code).toBe('not_found');
    expect(appErrorOf(() => getKey(db, 'key_nope')).code).toBe('not_found');
  });
});
