import { join } from 'node:path';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { ExportRequest, ExportResult, ShapeId } from '../../../src-shared/owner/datasets.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { sampleToRow } from '../../engine/shapes/index.ts';
import type { Db } from '../../store/db.ts';
import { exportPage, type ExportRecord } from '../../store/datasets-rows.ts';
import { writeRows } from '../files/index.ts';
import { shapeOfRow } from './preview.ts';
import { failedChecksOf } from './rows.ts';
import { readyDataset } from './summary.ts';

/** Rows read from SQLite per step of an export. */
export const EXPORT_PAGE_ROWS = 1000;

export interface ExportDeps {
  /** Where exports without a path are written (the browser transport). */
  tempDir: string;
  /** Makes a written file downloadable; returns its URL path. */
  downloads: { register(path: string, fileName: string): string };
}

type Row = Record<string, unknown>;

/** The row as exported: the accepted fix written back in the original schema, else the original. */
function exportedRow(record: ExportRecord, shape: ShapeId, includeVerdicts: boolean): Row {
  const original = JSON.parse(record.original_json) as Row;
  let row = original;
  if (record.decision === 'accepted' && record.fixed_json !== null) {
    const fixed = JSON.parse(record.fixed_json) as Sample;
    try {
      row = sampleToRow(fixed, original, shapeOfRow(original, shape));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError(
        'invalid_request',
        `row ${record.row_index}: its accepted fix cannot be written as ${shape}: ${error.message}`,
      );
    }
  }
  if (!includeVerdicts) return row;
  return {
    ...row,
    svc_passed: record.passed === null ? null : record.passed === 1,
    svc_failed_checks: failedChecksOf(record.failed_checks).join(','),
    svc_flagged: record.flagged === 1,
    svc_decision: record.decision,
  };
}

async function* exportedRows(
  db: Db,
  datasetId: string,
  shape: ShapeId,
  options: { includeVerdicts: boolean; dropFlagged: boolean },
): AsyncGenerator<Row> {
  // Keyset pages, not one open statement: other queries (a run writing) go on meanwhile.
  for (let after = -1; ;) {
    const page = exportPage(db, datasetId, after, EXPORT_PAGE_ROWS);
    if (page.length === 0) return;
    for (const record of page) {
      if (options.dropFlagged && record.flagged === 1) continue;
      yield exportedRow(record, shape, options.includeVerdicts);
    }
    after = page[page.length - 1]?.row_index ?? after;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const safeName = (name: string): string =>
  name.replace(/\.(jsonl|ndjson|json|csv|parquet)$/i, '').replace(/[^\w.-]+/g, '_') || 'dataset';

/**
 * Writes a dataset in its original schema: accepted fixes applied, every
 * other row as imported (so an untouched dataset comes back with the same
 * rows; JSON is written compact, so a file written with spaces or \u
 * escapes comes back equal in value, not in bytes). Options: the verdict columns `svc_passed`,
 * `svc_failed_checks` (comma-separated), `svc_flagged`, `svc_decision`; and
 * leaving out rows whose latest fix is flagged. Streamed from SQLite; written
 * to `path`, or to a temporary file offered as a download.
 */
export async function exportDataset(
  db: Db,
  deps: ExportDeps,
  request: z.output<typeof ExportRequest>,
): Promise<z.output<typeof ExportResult>> {
  const dataset = readyDataset(db, request.dataset_id);
  const fileName = `${safeName(dataset.name)}.clean.${request.format}`;
  const path =
    request.path ?? join(deps.tempDir, `${dataset.id}-${Date.now().toString(36)}-${fileName}`);
  const rows = exportedRows(db, dataset.id, dataset.shape as ShapeId, {
    includeVerdicts: request.include_verdicts,
    dropFlagged: request.drop_flagged,
  });
  const written = await writeRows(path, request.format, rows);
  return {
    rows: written.rows,
    bytes: written.bytes,
    path: request.path ?? null,
    download_url: request.path === undefined ? deps.downloads.register(path, fileName) : null,
  };
}
