import { AppError } from '../../../src-shared/errors.ts';
import type { RowFilter } from '../../../src-shared/owner/datasets.ts';
import type { RunScope } from '../../../src-shared/owner/runs.ts';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { matchingIndices } from '../../store/datasets-rows.ts';
import type { IndexedSearch } from '../../store/search-text.ts';
import { datasetSize, rowsSize } from '../../store/row-sizes.ts';
import { rowSearch } from './search-text.ts';

/**
 * The rows of a run's scope in ascending order, read a batch at a time. A
 * whole dataset is a range: its million indices made as one array held the
 * server 60-90 ms as the run started (`Array.from` of a million). A filter's
 * or a selection's rows are one typed array, worked out off the main thread
 * (run-scope.ts).
 */
export interface ScopeRows {
  readonly length: number;
  /** The row indices at positions `start` to `end` (not included). */
  slice(start: number, end: number): number[];
  /** The row index at `position` (0 <= position < length). */
  at(position: number): number;
}

/** An import numbers its rows 0..n-1. */
class AllRows implements ScopeRows {
  readonly length: number;
  constructor(length: number) {
    this.length = length;
  }
  slice(start: number, end: number): number[] {
    const rows: number[] = [];
    for (let row = Math.max(0, start); row < Math.min(end, this.length); row++) rows.push(row);
    return rows;
  }
  at(position: number): number {
    return position;
  }
}

/** Rows given as ascending indices. */
class IndexRows implements ScopeRows {
  readonly #indices: Int32Array;
  constructor(indices: Int32Array) {
    this.#indices = indices;
  }
  get length(): number {
    return this.#indices.length;
  }
  slice(start: number, end: number): number[] {
    return Array.from(this.#indices.subarray(start, end));
  }
  at(position: number): number {
    return this.#indices[position] as number;
  }
}

export const allRows = (rowCount: number): ScopeRows => new AllRows(rowCount);
export const indexRows = (indices: Int32Array): ScopeRows => new IndexRows(indices);

/** At most this many ranges of a selection are recorded (see scopeRecord). */
export const RECORDED_RANGES = 10_000;

/**
 * What a run's record keeps of its scope (`runs.scope_json`, which says what
 * a run covered; nothing reads it back): the whole dataset or a filter as
 * asked; a selection as `{ kind: 'selection', rows, first, last, ranges }`,
 * how many rows, the first and last of them, and their ascending ranges
 * (`[first, last]`, both included), or `ranges: null` past RECORDED_RANGES
 * (rows scattered one by one). A million selected indices kept as sent took
 * 16-35 ms of `JSON.stringify` on the server's thread, then SQLite's
 * `json_valid` of 7 MB; rows next to each other are one range, and a
 * scattered million stops at the cap (every range made as an array took
 * 0.2 s).
 */
export function scopeRecord(scope: RunScope, rows: ScopeRows): string {
  if (scope.kind !== 'selection') return JSON.stringify(scope);
  let ranges: [number, number][] | null = [];
  for (let i = 0; i < rows.length;) {
    if (ranges.length === RECORDED_RANGES) {
      ranges = null;
      break;
    }
    const first = rows.at(i);
    let last = first;
    while (++i < rows.length && rows.at(i) === last + 1) last++;
    ranges.push([first, last]);
  }
  const bounds = rows.length > 0 ? { first: rows.at(0), last: rows.at(rows.length - 1) } : {};
  return JSON.stringify({ kind: 'selection', rows: rows.length, ...bounds, ranges });
}

/**
 * A selection as the run's rows are kept: a typed array (4 bytes a row,
 * sorted by the engine's numeric sort), checked against the dataset's size.
 * Copying a million indices takes a few milliseconds; sorting them, tens
 * (run-scope.ts has that done off the main thread).
 */
export function selectionArray(dataset: DatasetRecord, indices: readonly number[]): Int32Array {
  const rows = new Int32Array(indices.length);
  let outside: number | undefined;
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i] as number;
    if (index >= dataset.row_count && (outside === undefined || index < outside)) outside = index;
    rows[i] = index;
  }
  if (outside !== undefined) {
    throw new AppError(
      'invalid_request',
      `row ${outside} is not in the dataset (it has ${dataset.row_count} rows)`,
      { param: '/scope/indices' },
    );
  }
  return rows;
}

/** Sorted ascending and without repeats, in place; returns the distinct part. */
export function sortedDistinct(rows: Int32Array): Int32Array {
  rows.sort();
  let kept = 0;
  for (let i = 0; i < rows.length; i++) {
    if (i === 0 || rows[i] !== rows[kept - 1]) rows[kept++] = rows[i] as number;
  }
  return rows.subarray(0, kept);
}

/** A filter's rows, ascending (searched in the dataset's index when `index` is given). */
export function filterArray(
  db: Db,
  datasetId: string,
  filter: RowFilter,
  index?: IndexedSearch,
): Int32Array {
  return Int32Array.from(matchingIndices(db, datasetId, filter, rowSearch(db, datasetId, index)));
}

/** The characters of the scope's rows as stored (`rows` undefined: the whole dataset). */
export function scopeSize(db: Db, datasetId: string, rows: Int32Array | undefined): number {
  return rows === undefined
    ? datasetSize(db, datasetId)
    : rowsSize(db, datasetId, Array.from(rows));
}

/** What a run's scope asks of the grid's thread (run-scope.ts): the rows, and their size if `size`. */
export interface ScopeQuestion {
  dataset_id: string;
  /** The filter's rows; with neither this nor `selection`, the whole dataset. */
  filter?: RowFilter;
  /** A selection as selectionArray made it (copied to the worker: this thread keeps its own). */
  selection?: Int32Array;
  size: boolean;
}

export interface ScopeAnswer {
  /** Ascending, distinct; undefined for the whole dataset (a range). */
  rows: Int32Array | undefined;
  size: number | undefined;
}

/** Answers a ScopeQuestion on this thread (the dataset's search `index` when it has one). */
export function answerScope(db: Db, question: ScopeQuestion, index?: IndexedSearch): ScopeAnswer {
  const { dataset_id, filter, selection } = question;
  const rows =
    filter !== undefined
      ? filterArray(db, dataset_id, filter, index)
      : selection !== undefined
        ? sortedDistinct(selection)
        : undefined;
  return { rows, size: question.size ? scopeSize(db, dataset_id, rows) : undefined };
}
