import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, openReadOnly, type Db } from './db.ts';
import {
  closeSignatureCache,
  openSignatureCache,
  pruneSignatures,
  sampleKey,
  saveSignatures,
  storedSignatures,
  type PackedSignatures,
} from './signature-cache.ts';

/**
 * The signatures a scan keeps between scans, beside the app database (or in
 * memory with an in-memory one): written by the scan's thread, read by any
 * connection to the same database, each with the key of the sample it was
 * computed from, and dropped with their dataset.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const packed = (rows: number[], keys: number[], fill: number): PackedSignatures => ({
  rows,
  keys,
  words: new Uint32Array(rows.length * 3).fill(fill),
  length: 3,
});

function onDisk(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'svc-signatures-'));
  dirs.push(dir);
  return openDatabase(dir);
}

describe('the signature cache', () => {
  it.each([
    ['beside a database on disk', onDisk],
    ['of a database in memory', () => openDatabase(':memory:')],
  ])('keeps signatures %s, read by range, replaced, and dropped with the dataset', (_, open) => {
    const db = open();
    // Nothing kept yet: no file is made by reading.
    expect(storedSignatures(db, 'ds_a', -1, 100).size).toBe(0);
    const cache = openSignatureCache(db);
    saveSignatures(cache, 'ds_a', packed([0, 1, 2, 5], [0, 0, 9, 0], 7));
    saveSignatures(cache, 'ds_b', packed([0], [0], 1));
    saveSignatures(cache, 'ds_a', packed([2], [0], 3));
    // Another connection to the database (a scan's slice worker) reads them.
    const reader = db.memory ? db : openReadOnly(db.name);
    const kept = storedSignatures(reader, 'ds_a', 0, 5);
    expect([...kept.keys()].sort()).toEqual([1, 2, 5]);
    expect(kept.get(2)).toEqual({ key: 0, sig: Buffer.from(new Uint32Array(3).fill(3).buffer) });
    expect(kept.get(1)?.sig.readUInt32LE(8)).toBe(7);
    pruneSignatures(cache, new Set(['ds_b']));
    expect(storedSignatures(reader, 'ds_a', -1, 100).size).toBe(0);
    expect(storedSignatures(reader, 'ds_b', -1, 100).size).toBe(1);
    closeSignatureCache(cache);
    if (reader !== db) reader.close();
    db.close();
  });

  it('keys the imported sample 0 and an accepted fix by what it holds', () => {
    expect(sampleKey({ decision: null, fixed_json: null })).toBe(0);
    expect(sampleKey({ decision: 'rejected', fixed_json: '{"a":1}' })).toBe(0);
    const fix = sampleKey({ decision: 'accepted', fixed_json: '{"a":1}' });
    expect(fix).toBeGreaterThan(0);
    expect(Number.isSafeInteger(fix)).toBe(true);
    expect(sampleKey({ decision: 'accepted', fixed_json: '{"a":2}' })).not.toBe(fix);
    expect(sampleKey({ decision: 'accepted', fixed_json: '{"a":1}' })).toBe(fix);
  });
});
