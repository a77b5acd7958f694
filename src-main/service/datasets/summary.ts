import { AppError } from '../../../src-shared/errors.ts';
import type { DatasetSummary, ShapeId } from '../../../src-shared/owner/datasets.ts';
import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import type { TaskType } from '../../../src-shared/schemas/sample.ts';
import type { Db } from '../../store/db.ts';
import {
  datasetRecord,
  datasetStats,
  type DatasetRecord,
  type DatasetStats,
} from '../../store/datasets.ts';

const NOTHING_DONE: DatasetStats = {
  audited: 0,
  failed: 0,
  changed: 0,
  flagged: 0,
  accepted: 0,
  dropped: 0,
};

/** A dataset as the app lists it: its record and the counts over its rows. */
export function summaryOf(db: Db, record: DatasetRecord): DatasetSummary {
  // Nothing has touched the rows of a dataset still importing (runs and decisions wait): its
  // counts are zero, not a read of every row so far each time the growing grid lists it.
  const stats = record.state === 'importing' ? NOTHING_DONE : datasetStats(db, record.id);
  return {
    id: record.id,
    name: record.name,
    file_name: record.file_name,
    format: record.format,
    shape: record.shape as ShapeId,
    mapping:
      record.mapping_json === null ? null : (JSON.parse(record.mapping_json) as FieldMapping),
    paths: record.paths,
    task_types: JSON.parse(record.task_types) as TaskType[],
    rows: record.row_count,
    errors: record.error_count,
    not_utf8_line: record.not_utf8_line,
    ...stats,
    eval_set: record.eval_set === 1,
    created_at: record.created_at,
    state: record.state === 'importing' ? 'importing' : 'ready',
  };
}

/**
 * The dataset, ready or still importing (its rows so far can be read, by
 * the grid and the review); `not_found` when it is unknown or being deleted.
 */
export function readableDataset(db: Db, id: string): DatasetRecord {
  const record = datasetRecord(db, id);
  if (record?.state !== 'ready' && record?.state !== 'importing') {
    throw new AppError('not_found', `no dataset with id ${JSON.stringify(id)}`);
  }
  return record;
}

/**
 * The dataset, ready (imported, not being deleted); `not_found` otherwise,
 * saying why when it is there but not ready: a dataset the lists show as
 * importing was answered "no dataset with id", as if it did not exist.
 */
export function readyDataset(db: Db, id: string): DatasetRecord {
  const record = datasetRecord(db, id);
  if (record?.state === 'ready') return record;
  const named = record ? `dataset ${JSON.stringify(record.name)} (${record.id})` : '';
  throw new AppError(
    'not_found',
    record?.state === 'importing'
      ? `${named} is still importing (${record.row_count} rows so far): its rows can be read, ` +
          'but runs, decisions, the Overview and export are refused until the import has ended: try again then'
      : record?.state === 'deleting'
        ? `${named} is being deleted`
        : `no dataset with id ${JSON.stringify(id)}`,
  );
}
