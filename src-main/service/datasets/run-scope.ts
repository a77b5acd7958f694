import type { RunScope } from '../../../src-shared/owner/runs.ts';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { gridQueries } from './grid-queries.ts';
import { allRows, indexRows, selectionArray, type ScopeRows } from './scope.ts';

export interface ResolvedScope {
  rows: ScopeRows;
  /** The characters of its rows as stored, when asked for (an estimate scales by them). */
  size: number | undefined;
}

/**
 * The rows a run covers, fixed when the run starts (a filter is evaluated
 * once: rows the run changes do not leave its scope), worked out off the main
 * thread by the grid's worker (grid-worker.ts): a filter's query (a search
 * over a million rows takes seconds before its index is built), a selection's
 * sort, and the size an estimate scales by (every row's length summed: 0.1 s
 * at 50,000 rows). A whole dataset without its size asks nothing: a range.
 */
export async function resolveScope(
  db: Db,
  dataset: DatasetRecord,
  scope: RunScope,
  { size }: { size: boolean },
): Promise<ResolvedScope> {
  if (scope.kind === 'all' && !size) return { rows: allRows(dataset.row_count), size: undefined };
  const answer = await gridQueries(db).scope({
    dataset_id: dataset.id,
    ...(scope.kind === 'filter' ? { filter: scope.filter } : {}),
    ...(scope.kind === 'selection' ? { selection: selectionArray(dataset, scope.indices) } : {}),
    size,
  });
  return {
    rows: answer.rows === undefined ? allRows(dataset.row_count) : indexRows(answer.rows),
    size: answer.size,
  };
}
