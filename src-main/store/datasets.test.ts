import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import {
  datasetRecord,
  datasetStats,
  datasetsIn,
  deleteDatasetRecord,
  deleteRowSlice,
  finishImport,
  insertDataset,
  insertImportErrors,
} from './datasets.ts';
import { changedAmong, countRows, pageIndices, setDecision } from './datasets-rows.ts';
import { pageSegments, rowWhere, source } from './datasets-filter.ts';
import { everyFieldSearch, importTextRows } from './testing/text-rows.ts';

function withRows(n: number) {
  const db = openDatabase(':memory:');
  importTextRows(db, 'ds_a', n);
  return db;
}

describe('datasets tables (migration 3)', () => {
  it('keeps a dataset out of the lists until its import finishes', () => {
    const db = openDatabase(':memory:');
    insertDataset(db, { id: 'ds_b', name: 'b', file_name: 'b.csv', format: 'csv', shape: 'gsm8k' });
    expect(datasetsIn(db, 'ready')).toEqual([]);
    finishImport(db, 'ds_b', { row_count: 0, error_count: 2, task_types: ['question_answer'] });
    expect(datasetsIn(db, 'ready').map((d) => d.id)).toEqual(['ds_b']);
    expect(datasetRecord(db, 'ds_b')).toMatchObject({
      error_count: 2,
      task_types: '["question_answer"]',
    });
  });

  it('refuses bad ids, formats and decisions', () => {
    const db = withRows(1);
    const dataset = { name: 'x', file_name: 'x', format: 'jsonl' as const, shape: 'text' };
    expect(() => insertDataset(db, { ...dataset, id: 'nope' })).toThrow(/CHECK/);
    expect(() => insertDataset(db, { ...dataset, id: 'ds_x', format: 'xml' as 'json' })).toThrow(
      /CHECK/,
    );
    expect(() => db.prepare(`UPDATE dataset_rows SET decision = 'maybe'`).run()).toThrow(/CHECK/);
  });

  it('deletes rows in slices, then the dataset with its errors and runs', () => {
    const db = withRows(25);
    insertImportErrors(db, 'ds_a', [{ row: 3, message: 'bad' }]);
    expect(deleteRowSlice(db, 'ds_a', 10)).toBe(10);
    expect(countRows(db, 'ds_a')).toBe(15);
    expect(deleteRowSlice(db, 'ds_a', 10)).toBe(10);
    expect(deleteRowSlice(db, 'ds_a', 10)).toBe(5);
    expect(deleteRowSlice(db, 'ds_a', 10)).toBe(0);
    expect(deleteDatasetRecord(db, 'ds_a')).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM dataset_errors').get()).toEqual({ n: 0 });
  });

  it('answers filters from the narrow covering indexes, a search from the rows', () => {
    const db = withRows(3);
    const plan = (sql: string, params: unknown[]): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    const where = rowWhere('ds_a', { flagged: true, failed_check: 'safety', decision: 'pending' });
    // the rows in the filter's most selective state (migration 9's partial index), not every row
    expect(plan(`SELECT count(*) FROM ${source(where)} WHERE ${where.sql}`, where.params)).toMatch(
      /COVERING INDEX dataset_rows_flagged/,
    );
    const byType = { column: 'task_type', direction: 'desc' } as const;
    // each part of an order (a task type; the scored rows, then the rest) is read in index order
    for (const column of ['task_type', 'score', 'status'] as const) {
      const sort = { column, direction: 'desc' } as const;
      const segments = pageSegments(where, sort, ['question_answer', 'text']);
      expect(segments.length).toBeGreaterThan(1);
      for (const segment of segments) {
        const segmentPlan = plan(segment.sql, [...segment.params, 5, 0]);
        expect(segmentPlan).toMatch(/INDEX dataset_rows_(by_score|by_status|flagged)/);
        expect(segmentPlan).not.toMatch(/TEMP B-TREE/);
      }
    }
    const search = rowWhere('ds_a', { search: 'Row 1' });
    expect(search.searches).toBe(true);
    expect(
      pageIndices(db, 'ds_a', {
        filter: { search: 'ROW 1' },
        sort: byType,
        offset: 0,
        limit: 5,
        search: everyFieldSearch,
      }),
    ).toEqual([1]);
  });

  it('counts a dataset’s rows by state, and decides only on changed rows', () => {
    const db = withRows(4);
    db.prepare(`UPDATE dataset_rows SET passed = row_index % 2, changed = row_index < 2`).run();
    expect(datasetStats(db, 'ds_a')).toEqual({
      audited: 4,
      failed: 2,
      changed: 2,
      flagged: 0,
      accepted: 0,
      dropped: 0,
    });
    const accepted = changedAmong(db, 'ds_a', [0, 1, 2, 3]);
    expect(accepted).toEqual([0, 1]);
    setDecision(db, 'ds_a', 'accepted', accepted);
    expect(changedAmong(db, 'ds_a', [1, 3])).toEqual([1]);
    setDecision(db, 'ds_a', null, [0, 3]);
    expect(datasetStats(db, 'ds_a').accepted).toBe(1);
  });

  it('counts by state from the partial indexes as a count over every row would', () => {
    const state = fc.record({
      passed: fc.constantFrom(null, 0, 1),
      flagged: fc.constantFrom(0, 1),
      changed: fc.constantFrom(0, 1),
      decision: fc.constantFrom(null, 'accepted', 'rejected'),
      dropped: fc.constantFrom(0, 1),
      failed_checks: fc.constantFrom('', 'correctness'),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 11 }), state), { maxLength: 40 }), (updates) => {
        const db = withRows(12);
        const update = db.prepare(
          `UPDATE dataset_rows SET passed = @passed, flagged = @flagged, changed = @changed,
             decision = @decision, dropped = @dropped, failed_checks = @failed_checks
           WHERE dataset_id = 'ds_a' AND row_index = @row`,
        );
        for (const [row, values] of updates) update.run({ row, ...values });
        const everyRow = db
          .prepare(
            `SELECT count(passed) AS audited, coalesce(sum(passed = 0), 0) AS failed,
               coalesce(sum(changed), 0) AS changed, coalesce(sum(flagged), 0) AS flagged,
               coalesce(sum(decision = 'accepted'), 0) AS accepted,
               coalesce(sum(dropped), 0) AS dropped
             FROM dataset_rows WHERE dataset_id = 'ds_a'`,
          )
          .get();
        expect(datasetStats(db, 'ds_a')).toEqual(everyRow);
        db.close();
      }),
      { numRuns: 200 },
    );
  });
});
