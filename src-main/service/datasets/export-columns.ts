import { AppError } from '../../../src-shared/errors.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import type { ExportColumns } from '../../../src-shared/owner/datasets.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { Db } from '../../store/db.ts';
import { acceptedFixes, sourceKeyCounts } from '../../store/datasets-columns.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { rowWriter } from './row-sample.ts';
import { readyDataset } from './summary.ts';

/**
 * The columns a CSV or Parquet export adds: one set of columns serves every
 * row there, so a key only some rows hold (ftfy's `comment`, or a `note` a
 * person's edit added to one row) comes back on the others, empty or null.
 * The export dialog says which before it writes; JSON and JSON Lines write
 * each row's own keys and add none. Read on the grid's worker
 * (grid-queries.ts): over a million rows it takes seconds.
 */
export function exportColumns(db: Db, datasetId: string): ExportColumns {
  const dataset = readyDataset(db, datasetId);
  const { rows, keys } = sourceKeyCounts(db, dataset.id);
  const counts = new Map(keys.map((key) => [key.key, key.rows]));
  for (const [key, added] of keysAddedByFixes(db, dataset)) {
    counts.set(key, (counts.get(key) ?? 0) + added);
  }
  return {
    rows,
    added: [...counts]
      .filter(([, holding]) => holding < rows)
      .map(([column, holding]) => ({ column, rows: holding })),
  };
}

/**
 * The keys the accepted fixes add to their rows as the export writes them
 * (the dataset's own writer), each with how many rows: a fix the row cannot
 * hold leaves it as it was and adds nothing, as in the export. The paths of a
 * tree write no key of their own.
 */
function keysAddedByFixes(db: Db, dataset: DatasetRecord): Map<string, number> {
  const added = new Map<string, number>();
  if (dataset.paths === 'all') return added;
  const write = rowWriter(dataset);
  for (const record of acceptedFixes(db, dataset.id)) {
    const original = parseJsonExact(record.original_json);
    if (typeof original !== 'object' || original === null || Array.isArray(original)) continue;
    let row: Record<string, unknown>;
    try {
      row = write(parseJsonExact(record.fixed_json) as Sample, original as Record<string, unknown>);
    } catch (error) {
      if (error instanceof AppError) continue;
      throw error;
    }
    for (const key of Object.keys(row)) {
      if (!Object.hasOwn(original, key)) added.set(key, (added.get(key) ?? 0) + 1);
    }
  }
  return added;
}
