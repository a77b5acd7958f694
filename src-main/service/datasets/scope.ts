import { AppError } from '../../../src-shared/errors.ts';
import type { RunScope } from '../../../src-shared/owner/runs.ts';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { matchingIndices } from '../../store/datasets-rows.ts';
import { rowSearch } from './search-text.ts';

/**
 * The rows a run covers, as ascending row indices, fixed when the run starts
 * (a filter is evaluated once: rows the run changes do not leave its scope).
 */
export function scopeIndices(db: Db, dataset: DatasetRecord, scope: RunScope): number[] {
  switch (scope.kind) {
    case 'all':
      // An import numbers its rows 0..n-1.
      return Array.from({ length: dataset.row_count }, (_, i) => i);
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
