import type { ExportColumns } from '../../../src-shared/owner/datasets.ts';
import type { Db } from '../../store/db.ts';
import { sourceKeyCounts } from '../../store/datasets-columns.ts';
import { readyDataset } from './summary.ts';

/**
 * The columns a CSV or Parquet export adds: one set of columns serves every
 * row there, so a key only some source rows hold (ftfy's `comment`) comes
 * back on the others, empty or null. The export dialog says which before it
 * writes; JSON and JSON Lines write each row's own keys and add none.
 */
export function exportColumns(db: Db, datasetId: string): ExportColumns {
  const dataset = readyDataset(db, datasetId);
  const { rows, keys } = sourceKeyCounts(db, dataset.id);
  return {
    rows,
    added: keys
      .filter((key) => key.rows < rows)
      .map((key) => ({ column: key.key, rows: key.rows })),
  };
}
