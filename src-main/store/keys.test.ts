import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import {
  insertKeyRow,
  keyRecordById,
  keyRecords,
  keyRowByHash,
  setKeyRevoked,
  touchKeyLastUsed,
} from './keys.ts';

const HASH = 'a'.repeat(64);
const row = { id: 'key_0001', account_id: 1, name: 'ci', prefix: 'svc_abcdefgh', hash: HASH };

describe('api_keys table', () => {
  it('stores a key row and hands out records without the hash', () => {
    const db = openDatabase(':memory:');
    const record = insertKeyRow(db, row);
    expect(record).toMatchObject({ id: 'key_0001', name: 'ci', prefix: 'svc_abcdefgh' });
    expect(record).not.toHaveProperty('hash');
    expect(keyRowByHash(db, HASH)?.id).toBe('key_0001');
    expect(keyRecordById(db, 'key_0001')).toEqual(record);
    expect(keyRecords(db)).toEqual([record]);
  });

  it('refuses a duplicate hash, a malformed prefix and a non-hex hash', () => {
    const db = openDatabase(':memory:');
    insertKeyRow(db, row);
    expect(() => insertKeyRow(db, { ...row, id: 'key_0002' })).toThrow(/UNIQUE/);
    expect(() =>
      insertKeyRow(db, { ...row, id: 'key_3', hash: 'b'.repeat(64), prefix: 'sk-abc' }),
    ).toThrow(/CHECK/);
    expect(() => insertKeyRow(db, { ...row, id: 'key_4', hash: 'Z'.repeat(64) })).toThrow(/CHECK/);
  });

  it('keeps the first revocation time', () => {
    const db = openDatabase(':memory:');
    insertKeyRow(db, row);
    expect(setKeyRevoked(db, 'key_0001', '2025-01-01T00:00:00.000Z')?.revoked_at).toBe(
      '2025-01-01T00:00:00.000Z',
    );
    expect(setKeyRevoked(db, 'key_0001', '2025-02-01T00:00:00.000Z')?.revoked_at).toBe(
      '2025-01-01T00:00:00.000Z',
    );
    expect(setKeyRevoked(db, 'key_missing', '2025-02-01T00:00:00.000Z')).toBeUndefined();
  });

  it('writes last_used_at only when the stored one is stale', () => {
    const db = openDatabase(':memory:');
    insertKeyRow(db, row);
    expect(
      touchKeyLastUsed(db, 'key_0001', '2025-01-01T00:00:00.000Z', '2024-12-31T23:59:00.000Z'),
    ).toBe(true);
    expect(
      touchKeyLastUsed(db, 'key_0001', '2025-01-01T00:00:30.000Z', '2024-12-31T23:59:30.000Z'),
    ).toBe(false);
    expect(
      touchKeyLastUsed(db, 'key_0001', '2025-01-01T00:01:00.000Z', '2025-01-01T00:00:00.000Z'),
    ).toBe(true);
    expect(keyRecordById(db, 'key_0001')?.last_used_at).toBe('2025-01-01T00:01:00.000Z');
  });
});
