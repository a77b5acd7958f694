import type { RowFilter, SORT_COLUMNS } from '../../src-shared/owner/datasets.ts';

/**
 * The grid's filters and sort orders as SQL over `dataset_rows`. Every filter
 * column is in each covering index (migration 3), so a query without a text
 * search reads only the index of its sort order; a text search scans the
 * dataset's rows (the small columns at the front of each, never the JSON).
 */

export type SortColumn = (typeof SORT_COLUMNS)[number];
export interface RowSort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

export interface RowWhere {
  /** `dataset_id = ? AND ...`, to follow WHERE. */
  sql: string;
  params: unknown[];
  /** Whether it reads `search_text` (not in the covering indexes). */
  searches: boolean;
}

/** The text a search compares against `search_text` (which is stored lowercased). */
export const searchKey = (text: string): string => text.toLowerCase();

export function rowWhere(datasetId: string, filter: RowFilter = {}): RowWhere {
  const clauses = ['dataset_id = ?'];
  const params: unknown[] = [datasetId];
  const flag = (column: string, value: boolean | undefined): void => {
    if (value === undefined) return;
    clauses.push(`${column} = ?`);
    params.push(value ? 1 : 0);
  };
  if (filter.failed_check !== undefined && filter.failed_check !== '') {
    if (filter.failed_check === '*') clauses.push('passed = 0');
    else {
      clauses.push('instr(failed_checks, ?) > 0');
      params.push(`,${filter.failed_check},`);
    }
  }
  flag('flagged', filter.flagged);
  flag('changed', filter.changed);
  flag('unverified', filter.unverified);
  if (filter.decision === 'pending') clauses.push('changed = 1 AND decision IS NULL');
  else if (filter.decision === 'dropped') clauses.push('dropped = 1');
  else if (filter.decision !== undefined) {
    clauses.push('decision = ?');
    params.push(filter.decision);
  }
  if (filter.issue_code !== undefined && filter.issue_code !== '') {
    const code = `,${filter.issue_code},`;
    if (filter.severity === 'error') clauses.push('instr(error_codes, ?) > 0');
    else if (filter.severity === 'warning') clauses.push('instr(warning_codes, ?) > 0');
    else {
      clauses.push('(instr(error_codes, ?) > 0 OR instr(warning_codes, ?) > 0)');
      params.push(code);
    }
    params.push(code);
  }
  if (filter.warned_check !== undefined && filter.warned_check !== '') {
    clauses.push('instr(warning_checks, ?) > 0');
    params.push(`,${filter.warned_check},`);
  }
  if (filter.warned !== undefined)
    clauses.push(filter.warned ? "warning_codes != ''" : "warning_codes = ''");
  if (filter.repeats !== undefined) {
    const repeats =
      "(instr(error_codes, ',exact_duplicate,') > 0 OR instr(error_codes, ',near_duplicate,') > 0)";
    clauses.push(filter.repeats ? repeats : `NOT ${repeats}`);
  }
  const search = filter.search === undefined ? '' : searchKey(filter.search);
  if (search !== '') {
    clauses.push('instr(search_text, ?) > 0');
    params.push(search);
  }
  return { sql: clauses.join(' AND '), params, searches: search !== '' };
}

const SORTS: Record<SortColumn, { key: string; index: string }> = {
  index: { key: 'row_index', index: 'dataset_rows_by_index' },
  task_type: { key: 'task_type', index: 'dataset_rows_by_task_type' },
  score: { key: 'score_key', index: 'dataset_rows_by_score' },
  status: { key: 'status_rank', index: 'dataset_rows_by_status' },
};

/** ORDER BY for a sort: the column, then the row index, both in the sort's direction. */
export function orderBy(sort: RowSort): string {
  const direction = sort.direction === 'desc' ? 'DESC' : 'ASC';
  const { key } = SORTS[sort.column];
  return key === 'row_index'
    ? `row_index ${direction}`
    : `${key} ${direction}, row_index ${direction}`;
}

/**
 * The table expression to read for a query: the sort's covering index when
 * the filter can be answered from it, else the table (a text search).
 */
export function source(where: RowWhere, sort: RowSort = { column: 'index', direction: 'asc' }) {
  return where.searches ? 'dataset_rows' : `dataset_rows INDEXED BY ${SORTS[sort.column].index}`;
}
