import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import { deleteHistoryBefore, historyRow, historyRows, insertHistoryRow } from './history.ts';

const base = {
  account_id: 1,
  key_id: null,
  request_id: 'req_1',
  operation: 'fix' as const,
  source: 'cli' as const,
  samples: 1,
  input_json: '[{"task_type":"text","text":"a"}]',
  output_json: '[{"task_type":"text","text":"a"}]',
  cost_micro: 10_000,
  created_at: '2025-01-01T00:00:00.000Z',
};

describe('history table', () => {
  it('refuses audit, unknown sources and invalid JSON', () => {
    const db = openDatabase(':memory:');
    expect(() => insertHistoryRow(db, { ...base, operation: 'audit' as 'fix' })).toThrow(/CHECK/);
    expect(() => insertHistoryRow(db, { ...base, source: 'web' as 'cli' })).toThrow(/CHECK/);
    expect(() => insertHistoryRow(db, { ...base, input_json: '{' })).toThrow(/CHECK/);
    expect(() => insertHistoryRow(db, { ...base, key_id: 'key_nope' })).toThrow(/FOREIGN KEY/);
  });

  it('lists newest first without JSON unless asked, and deletes by age', () => {
    const db = openDatabase(':memory:');
    const a = insertHistoryRow(db, base);
    const b = insertHistoryRow(db, { ...base, created_at: '2025-01-10T00:00:00.000Z' });
    const rows = historyRows(db, { limit: 10 });
    expect(rows.map((r) => r.id)).toEqual([b, a]);
    expect(rows[0]).not.toHaveProperty('input_json');
    expect(historyRows(db, { limit: 10, withJson: true })[0]).toHaveProperty('output_json');
    expect(historyRows(db, { limit: 10, beforeId: b }).map((r) => r.id)).toEqual([a]);
    expect(historyRow(db, a)?.input_json).toBe(base.input_json);
    expect(deleteHistoryBefore(db, '2025-01-05T00:00:00.000Z')).toBe(1);
    expect(historyRows(db, { limit: 10 }).map((r) => r.id)).toEqual([b]);
  });
});
