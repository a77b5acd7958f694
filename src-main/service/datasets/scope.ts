import { AppError } from '../../../src-shared/errors.ts';
import type { RunScope } from '../../../src-shared/owner/runs.ts';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { matchingIndices } from '../../store/datasets-rows.ts';
import { rowSearch } from './search-text.ts';

/**
 * The rows of a run's scope in ascending order, read a batch at a time. A
 * whole dataset is a range: its million indices made as one array held the
 * server 60-90 ms as the run started (`Array.from` of a million).
 */
export interface ScopeRows {
  readonly length: number;
  /** The row indices at positions `start` to `end` (not included). */
  slice(start: number, end: number): number[];
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
}

/** The rows a run covers (see scopeIndices), a whole dataset as a range. */
export function scopeRows(db: Db, dataset: DatasetRecord, scope: RunScope): ScopeRows {
  return scope.kind === 'all' ? new AllRows(dataset.row_count) : scopeIndices(db, dataset, scope);
}

/** 0..n-1, filled in place (`Array.from` with a mapping is several times slower). */
function range(n: number): number[] {
  const rows = new Array<number>(n);
  for (let row = 0; row < n; row++) rows[row] = row;
  return rows;
}

/**
 * The rows a run covers, as ascending row indices, fixed when the run starts
 * (a filter is evaluated once: rows the run changes do not leave its scope).
 */
export function scopeIndices(db: Db, dataset: DatasetRecord, scope: RunScope): number[] {
  switch (scope.kind) {
    case 'all':
      return range(dataset.row_count);
    case 'filter':
      return matchingIndices(db, dataset.id, scope.filter, rowSearch(db, dataset.id));
    case 'selection': {
      const indices = [...new Set(scope.indices)].sort((a, b) => a - b);
      const outside = indices.find((index) => index >= dataset.row_count);
      if (outside !== undefined) {
        throw new AppError(
          'invalid_request',
          `row ${outside} is not in the dataset (it has ${dataset.row_count} rows)`,
          { param: '/scope/indices' },
        );
      }
      return indices;
    }
  }
}
