import { describe, expect, it } from 'vitest';
import type { RowFilter } from '../../src-shared/owner/datasets.ts';
import { openDatabase } from './db.ts';
import { insertDataset } from './datasets.ts';
import { countRows, insertRows, pageIndices } from './datasets-rows.ts';
import { rowWhere, source } from './datasets-filter.ts';
import { FILL_SORT_COUNTS } from './migrations/009-grid-filter-indexes.ts';

/**
 * Each grid filter read from its partial index (migration 9) matches exactly
 * the rows a plain reading of the filter does: 400 rows in every mix of
 * states, counted and paged both ways, against the same filter evaluated in
 * JavaScript.
 */

interface State {
  passed: 0 | 1 | null;
  failed_checks: string;
  flagged: 0 | 1;
  changed: 0 | 1;
  unverified: 0 | 1;
  decision: 'accepted' | 'rejected' | null;
  dropped: 0 | 1;
  error_codes: string;
  warning_codes: string;
  warning_checks: string;
}

const N = 400;
/** A spread of states: each column cycles with its own period, so the combinations vary. */
const stateOf = (i: number): State => ({
  passed: i % 7 === 0 ? null : i % 3 === 0 ? 0 : 1,
  // a failed check on a row that passed too (the index must not assume one implies the other)
  failed_checks: i % 3 === 0 ? ',correctness,coherence,' : i % 11 === 0 ? ',safety,' : '',
  flagged: i % 5 === 2 ? 1 : 0,
  changed: i % 4 === 1 ? 1 : 0,
  unverified: i % 9 === 4 ? 1 : 0,
  decision: i % 8 === 1 ? 'accepted' : i % 12 === 5 ? 'rejected' : null,
  dropped: i % 13 === 6 ? 1 : 0,
  error_codes: i % 6 === 0 ? ',wrong_answer,' : i % 17 === 3 ? ',exact_duplicate,' : '',
  warning_codes: i % 10 === 7 ? ',long_text,' : '',
  warning_checks: i % 10 === 7 ? ',style,' : i % 19 === 2 ? ',length,' : '',
});

/** A row as an import leaves it: no verdict, flag, change or decision. */
const IMPORTED: State = {
  passed: null,
  failed_checks: '',
  flagged: 0,
  changed: 0,
  unverified: 0,
  decision: null,
  dropped: 0,
  error_codes: '',
  warning_codes: '',
  warning_checks: '',
};

const has = (list: string, item: string): boolean => list.includes(`,${item},`);
/** The filter as the grid documents it, in JavaScript. */
function matches(s: State, f: RowFilter): boolean {
  if (f.failed_check === '*' && s.passed !== 0) return false;
  if (f.failed_check && f.failed_check !== '*' && !has(s.failed_checks, f.failed_check))
    return false;
  if (f.flagged !== undefined && s.flagged !== (f.flagged ? 1 : 0)) return false;
  if (f.changed !== undefined && s.changed !== (f.changed ? 1 : 0)) return false;
  if (f.unverified !== undefined && s.unverified !== (f.unverified ? 1 : 0)) return false;
  if (f.decision === 'pending' && !(s.changed === 1 && s.decision === null)) return false;
  if (f.decision === 'dropped' && s.dropped !== 1) return false;
  if ((f.decision === 'accepted' || f.decision === 'rejected') && s.decision !== f.decision)
    return false;
  if (f.issue_code) {
    const inErrors = has(s.error_codes, f.issue_code);
    const inWarnings = has(s.warning_codes, f.issue_code);
    if (
      f.severity === 'error'
        ? !inErrors
        : f.severity === 'warning'
          ? !inWarnings
          : !(inErrors || inWarnings)
    )
      return false;
  }
  if (f.warned_check && !has(s.warning_checks, f.warned_check)) return false;
  if (f.warned !== undefined && (s.warning_codes !== '') !== f.warned) return false;
  if (f.repeats !== undefined) {
    const repeats = has(s.error_codes, 'exact_duplicate') || has(s.error_codes, 'near_duplicate');
    if (repeats !== f.repeats) return false;
  }
  return true;
}

function database() {
  const db = openDatabase(':memory:');
  insertDataset(db, {
    id: 'ds_a',
    name: 'a',
    file_name: 'a.jsonl',
    format: 'jsonl',
    shape: 'text',
  });
  insertDataset(db, {
    id: 'ds_b',
    name: 'b',
    file_name: 'b.jsonl',
    format: 'jsonl',
    shape: 'text',
  });
  for (const id of ['ds_a', 'ds_b']) {
    db.transaction(() =>
      insertRows(
        db,
        id,
        Array.from({ length: N }, (_, i) => ({
          row_index: i,
          source_row: i + 1,
          task_type: i % 2 === 0 ? 'text' : 'question_answer',
          search_text: `row ${i}`,
          title: `Row ${i}`,
          detail: '',
          original_json: '{}',
          sample_json: '{}',
        })),
      ),
    )();
  }
  db.prepare(`UPDATE datasets SET task_types = '["question_answer","text"]'`).run();
  const update = db.prepare(
    `UPDATE dataset_rows SET passed = @passed, failed_checks = @failed_checks, flagged = @flagged,
       changed = @changed, unverified = @unverified, decision = @decision, dropped = @dropped,
       error_codes = @error_codes, warning_codes = @warning_codes, warning_checks = @warning_checks,
       score = CASE WHEN @passed IS NULL THEN NULL ELSE (@i % 10) / 10.0 END
     WHERE dataset_id = 'ds_a' AND row_index = @i`,
  );
  db.transaction(() => {
    for (let i = 0; i < N; i++) update.run({ i, ...stateOf(i) });
  })();
  return db;
}

const FILTERS: RowFilter[] = [
  { failed_check: '*' },
  { failed_check: 'correctness' },
  { failed_check: 'safety' },
  { flagged: true },
  { flagged: false },
  { changed: true },
  { changed: false },
  { unverified: true },
  { decision: 'pending' },
  { decision: 'accepted' },
  { decision: 'rejected' },
  { decision: 'dropped' },
  { issue_code: 'wrong_answer' },
  { issue_code: 'long_text', severity: 'warning' },
  { issue_code: 'wrong_answer', severity: 'error' },
  { warned_check: 'length' },
  { warned: true },
  { warned: false },
  { repeats: true },
  { repeats: false },
  { flagged: true, failed_check: '*' },
  { changed: true, decision: 'accepted', unverified: true },
  { decision: 'dropped', flagged: true, issue_code: 'wrong_answer' },
  { failed_check: 'correctness', changed: false, warned: false },
];

describe('grid filters from their partial indexes (migration 9)', () => {
  const db = database();
  const expected = (filter: RowFilter): number[] =>
    [...Array(N).keys()].filter((i) => matches(stateOf(i), filter));

  it('count and page exactly the rows a plain reading of each filter selects', () => {
    for (const filter of FILTERS) {
      const want = expected(filter);
      const label = JSON.stringify(filter);
      expect(want.length, label).toBeGreaterThan(0);
      expect(countRows(db, 'ds_a', filter), label).toBe(want.length);
      const sort = { column: 'index', direction: 'asc' } as const;
      const page = pageIndices(db, 'ds_a', { filter, sort, offset: 3, limit: 10 });
      expect(page, label).toEqual(want.slice(3, 13));
      const desc = pageIndices(db, 'ds_a', {
        filter,
        sort: { column: 'index', direction: 'desc' },
        offset: 0,
        limit: 1000,
      });
      expect(desc, label).toEqual([...want].reverse());
      // the other dataset (all rows in no state) shares the indexes, never its rows
      expect(countRows(db, 'ds_b', filter), label).toBe(matches(IMPORTED, filter) ? N : 0);
    }
  });

  it('pages each filter in every sort order, deep and by task type, as the whole order filtered', () => {
    const all = (column: 'task_type' | 'score' | 'status', direction: 'asc' | 'desc') =>
      pageIndices(db, 'ds_a', { sort: { column, direction }, offset: 0, limit: 1000 });
    for (const column of ['task_type', 'score', 'status'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const order = all(column, direction);
        expect(order).toHaveLength(N);
        for (const filter of FILTERS) {
          const want = order.filter((i) => matches(stateOf(i), filter));
          const got = pageIndices(db, 'ds_a', {
            filter,
            sort: { column, direction },
            offset: 5,
            limit: 7,
          });
          expect(got, `${column} ${direction} ${JSON.stringify(filter)}`).toEqual(
            want.slice(5, 12),
          );
        }
      }
    }
  });

  it('reads a filter’s rows from the index of its state, not every row', () => {
    const plan = (filter: RowFilter): string => {
      const where = rowWhere('ds_a', filter);
      return (
        db
          .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM ${source(where)} WHERE ${where.sql}`)
          .all(...where.params) as { detail: string }[]
      )
        .map((r) => r.detail)
        .join('; ');
    };
    expect(plan({ failed_check: '*' })).toMatch(/COVERING INDEX dataset_rows_failing/);
    expect(plan({ failed_check: 'safety' })).toMatch(/COVERING INDEX dataset_rows_failing/);
    expect(plan({ issue_code: 'wrong_answer' })).toMatch(/COVERING INDEX dataset_rows_with_issues/);
    expect(plan({ flagged: true })).toMatch(/COVERING INDEX dataset_rows_flagged/);
    expect(plan({ changed: true })).toMatch(/COVERING INDEX dataset_rows_changed/);
    expect(plan({ decision: 'pending' })).toMatch(/COVERING INDEX dataset_rows_changed/);
    expect(plan({ decision: 'accepted' })).toMatch(/COVERING INDEX dataset_rows_decided/);
    expect(plan({ decision: 'dropped' })).toMatch(/COVERING INDEX dataset_rows_dropped/);
    expect(plan({ unverified: true })).toMatch(/COVERING INDEX dataset_rows_unverified/);
    expect(plan({ changed: true, flagged: true })).toMatch(/COVERING INDEX dataset_rows_flagged/);
    // a state no index holds (most rows): the narrow index of every row
    expect(plan({ flagged: false })).toMatch(/COVERING INDEX dataset_rows_by_index/);
  });

  it('leaves the rows an import writes out of every partial index', () => {
    const partial = db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dataset_rows'
           AND sql LIKE '%WHERE%' AND name NOT IN ('dataset_rows_by_score', 'dataset_rows_by_status')`,
      )
      .all() as { name: string; sql: string }[];
    expect(partial).toHaveLength(7);
    for (const { name, sql } of partial) {
      const condition = sql.split(/\bWHERE\b/)[1] ?? '';
      const entries = (id: string): number =>
        db
          .prepare(
            `SELECT count(*) FROM dataset_rows INDEXED BY ${name} WHERE dataset_id = ? AND (${condition})`,
          )
          .pluck()
          .get(id) as number;
      expect(entries('ds_b'), name).toBe(0);
      expect(entries('ds_a'), name).toBeGreaterThan(0);
    }
  });
});

describe('every row in row order', () => {
  const all = { column: 'index', direction: 'asc' } as const;
  const desc = { column: 'index', direction: 'desc' } as const;

  it('seeks a page deep in a dataset numbered 0..n-1, and reads it where a row is missing', () => {
    const db = database();
    expect(pageIndices(db, 'ds_b', { sort: all, offset: 395, limit: 10, total: N })).toEqual([
      395, 396, 397, 398, 399,
    ]);
    expect(pageIndices(db, 'ds_b', { sort: desc, offset: 1, limit: 3, total: N })).toEqual([
      398, 397, 396,
    ]);
    db.prepare(
      `DELETE FROM dataset_rows WHERE dataset_id = 'ds_b' AND row_index IN (5, 399)`,
    ).run();
    const query = { offset: 3, limit: 4, total: N - 2 };
    expect(pageIndices(db, 'ds_b', { sort: all, ...query })).toEqual([3, 4, 6, 7]);
    expect(pageIndices(db, 'ds_b', { sort: desc, ...query })).toEqual([395, 394, 393, 392]);
  });
});

describe('the sort orders of every row, deep', () => {
  it('pages each order at any offset as the whole order read at once', () => {
    const db = database();
    for (const column of ['task_type', 'score', 'status'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = { column, direction };
        const order = pageIndices(db, 'ds_a', { sort, offset: 0, limit: 1000, total: N });
        expect(order).toHaveLength(N);
        for (const offset of [1, 57, 150, 333, 395]) {
          expect(
            pageIndices(db, 'ds_a', { sort, offset, limit: 9, total: N }),
            `${column} ${direction} ${offset}`,
          ).toEqual(order.slice(offset, offset + 9));
        }
      }
    }
  });

  it('keeps each dataset’s count of scored rows and rows with a status as rows change', () => {
    const db = database();
    const stored = () =>
      db
        .prepare('SELECT dataset_id, scored, with_status FROM dataset_sort_counts ORDER BY 1')
        .all();
    const actual = () =>
      db
        .prepare(
          `SELECT dataset_id, count(score) AS scored,
             sum(passed IS NOT NULL OR flagged = 1) AS with_status
           FROM dataset_rows GROUP BY dataset_id HAVING scored > 0 OR with_status > 0 ORDER BY 1`,
        )
        .all();
    expect(stored()).toEqual(actual());
    expect(stored()).toHaveLength(1);
    // verdicts cleared, flags set and unset, a re-audit that changes nothing
    db.prepare(
      `UPDATE dataset_rows SET score = NULL, passed = NULL WHERE dataset_id = 'ds_a' AND row_index % 5 = 0`,
    ).run();
    db.prepare(
      `UPDATE dataset_rows SET flagged = 1 - flagged WHERE dataset_id = 'ds_a' AND row_index % 3 = 0`,
    ).run();
    db.prepare(`UPDATE dataset_rows SET score = 0.5, passed = 1 WHERE row_index % 7 = 0`).run();
    db.prepare(`UPDATE dataset_rows SET score = score WHERE row_index % 2 = 0`).run();
    expect(stored()).toEqual(actual());
    expect(stored()).toHaveLength(2);
    // a database upgraded with datasets in it: the same counts from the rows as they stand
    db.exec(`DELETE FROM dataset_sort_counts; ${FILL_SORT_COUNTS}`);
    expect(stored()).toEqual(actual());
    const sort = { column: 'score', direction: 'desc' } as const;
    const order = pageIndices(db, 'ds_b', { sort, offset: 0, limit: 1000, total: N });
    expect(pageIndices(db, 'ds_b', { sort, offset: 250, limit: 5, total: N })).toEqual(
      order.slice(250, 255),
    );
  });
});

describe('the benchmark filter (rows holding items of one benchmark or evaluation set)', () => {
  /** A row's `checks_json` as the scan writes it: only the checks with issues. */
  const contamination = (...benchmarks: string[]): string =>
    JSON.stringify({
      contamination: {
        passed: false,
        score: 0,
        issues: benchmarks.map((benchmark, item) => ({
          code: benchmark.includes('/') ? 'benchmark_overlap' : 'split_overlap',
          message: `holds ${benchmark} item ${item}`,
          severity: 'error',
          benchmark,
          benchmark_item: item,
        })),
      },
    });
  const CHECKS: Record<number, string> = {
    3: contamination('gsm8k/test'),
    8: contamination('gsm8k/test', 'math/test'),
    20: contamination('my-eval'),
    // a duplicate alone names no benchmark; a duplicate beside an overlap keeps it
    30: JSON.stringify({ duplicates: { passed: false, score: 0, issues: [] } }),
    41: JSON.stringify({
      ...(JSON.parse(contamination('math/test')) as object),
      duplicates: { passed: false, score: 0, issues: [{ code: 'exact_duplicate' }] },
    }),
  };
  const db = database();
  const write = db.prepare(
    'INSERT INTO dataset_row_checks (checks_json, dataset_id, row_index) VALUES (?, ?, ?)',
  );
  for (const [row, json] of Object.entries(CHECKS)) write.run(json, 'ds_a', Number(row));
  // the other dataset holds the same benchmark elsewhere: never counted with ds_a's rows
  write.run(contamination('gsm8k/test'), 'ds_b', 100);
  const sort = { column: 'index', direction: 'asc' } as const;
  const rows = (filter: RowFilter, id = 'ds_a') =>
    pageIndices(db, id, { filter, sort, offset: 0, limit: 1000 });

  it('selects the rows with a contamination issue naming it, and only those', () => {
    expect(rows({ benchmark: 'gsm8k/test' })).toEqual([3, 8]);
    expect(countRows(db, 'ds_a', { benchmark: 'gsm8k/test' })).toBe(2);
    expect(rows({ benchmark: 'math/test' })).toEqual([8, 41]);
    expect(rows({ benchmark: 'my-eval' })).toEqual([20]);
    expect(rows({ benchmark: 'gsm8k' })).toEqual([]);
    expect(rows({ benchmark: 'gsm8k/test' }, 'ds_b')).toEqual([100]);
    // an empty benchmark is no filter
    expect(countRows(db, 'ds_a', { benchmark: '' })).toBe(N);
  });

  it('combines with the other filters and every sort order', () => {
    // rows 3 and 8: 3 fails correctness (i % 3 === 0), 8 does not
    expect(rows({ benchmark: 'gsm8k/test', failed_check: 'correctness' })).toEqual([3]);
    expect(rows({ benchmark: 'math/test', flagged: false })).toEqual(
      [8, 41].filter((i) => stateOf(i).flagged === 0),
    );
    for (const column of ['task_type', 'score', 'status'] as const) {
      const order = pageIndices(db, 'ds_a', {
        sort: { column, direction: 'desc' },
        offset: 0,
        limit: 1000,
      });
      expect(
        pageIndices(db, 'ds_a', {
          filter: { benchmark: 'math/test' },
          sort: { column, direction: 'desc' },
          offset: 0,
          limit: 10,
        }),
        column,
      ).toEqual(order.filter((i) => i === 8 || i === 41));
    }
  });

  it('matches the benchmark as a value, never as a pattern or a piece of the JSON', () => {
    expect(rows({ benchmark: '%' })).toEqual([]);
    expect(rows({ benchmark: 'gsm8k/test"' })).toEqual([]);
    expect(rows({ benchmark: 'contamination' })).toEqual([]);
  });
});
