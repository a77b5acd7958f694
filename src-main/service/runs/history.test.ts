import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { openDatabase } from '../../store/db.ts';
import { getHistoryEntry, JsonText, listHistory, purgeHistory, recordHistory } from './history.ts';
import { createKey } from '../billing/keys.ts';

const samples = [
  { task_type: 'text', text: 'Ths is a sentense.' },
  { task_type: 'text', text: 'fine' },
];
const fixed = samples.map((s) => ({ ...s, fix: { changes: [], flagged: false, attempts: 1 } }));

describe('history', () => {
  it('records a run and lists it without the JSON unless asked', () => {
    const db = openDatabase(':memory:');
    const { record } = createKey(db);
    const id = recordHistory(db, {
      keyId: record.id,
      requestId: 'req_a',
      operation: 'fix',
      source: 'v1',
      input: samples,
      output: fixed,
      costMicro: 20_000,
    });
    const [summary] = listHistory(db, { limit: 10 });
    expect(summary).toMatchObject({
      id,
      account_id: 1,
      key_id: record.id,
      request_id: 'req_a',
      operation: 'fix',
      source: 'v1',
      samples: 2,
      cost_micro: 20_000,
    });
    expect(summary).not.toHaveProperty('input');
    expect(summary).not.toHaveProperty('input_json');
    const [full] = listHistory(db, { limit: 10, includeData: true });
    expect(full?.input).toEqual(samples);
    expect(full?.output).toEqual(fixed);
    expect(getHistoryEntry(db, id)).toEqual(full);
  });

  it('pages newest first', () => {
    const db = openDatabase(':memory:');
    const ids = [1, 2, 3, 4, 5].map((n) =>
      recordHistory(db, {
        requestId: `req_${n}`,
        operation: n % 2 ? 'fix' : 'refine',
        source: 'app',
        input: { n },
        output: { n },
        costMicro: 10_000,
      }),
    );
    const page1 = listHistory(db, { limit: 2 });
    expect(page1.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(page1[0]?.samples).toBeNull(); // the input is not an array
    const page2 = listHistory(db, { limit: 2, beforeId: page1[1]!.id });
    expect(page2.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(() => listHistory(db, { limit: 0 })).toThrow(RangeError);
  });

  it('refuses audit runs at the database (audit stores nothing)', () => {
    const db = openDatabase(':memory:');
    expect(() =>
      recordHistory(db, {
        requestId: 'r',
        operation: 'audit' as 'fix',
        source: 'http',
        input: [],
        output: [],
        costMicro: 0,
      }),
    ).toThrow(/CHECK/);
  });

  it('purges entries older than 30 days', () => {
    const db = openDatabase(':memory:');
    const now = new Date('2025-06-30T12:00:00.000Z');
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const entry = (days: number) =>
      recordHistory(db, {
        requestId: `age ${days}`,
        operation: 'refine',
        source: 'cli',
        input: [],
        output: [],
        costMicro: 10_000,
        now: at(days),
      });
    entry(45);
    entry(30.001);
    const kept = [entry(29.999), entry(1), entry(0)];
    expect(purgeHistory(db, now)).toBe(2);
    expect(listHistory(db, { limit: 10 }).map((e) => e.id)).toEqual(kept.reverse());
    expect(purgeHistory(db, now)).toBe(0);
  });

  it('answers not_found for an unknown entry', () => {
    const db = openDatabase(':memory:');
    expect(() => getHistoryEntry(db, 42)).toThrow(AppError);
    try {
      getHistoryEntry(db, 42);
    } catch (error) {
      expect((error as AppError).code).toBe('not_found');
    }
  });

  it("stores an array joined from its items' JSON as the array itself", () => {
    const db = openDatabase(':memory:');
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (items) => {
        const json = JsonText.ofItems(items.map((item) => JSON.stringify(item)));
        const id = recordHistory(db, {
          requestId: 'req_items',
          operation: 'fix',
          source: 'app',
          input: json,
          output: items,
          costMicro: 0,
        });
        const entry = getHistoryEntry(db, id);
        expect(entry.input).toEqual(entry.output);
        expect(entry.samples).toBe(null);
      }),
      { numRuns: 200 },
    );
  });
});
