import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { ExportRequest, ExportResult } from '../../../src-shared/owner/datasets.ts';
import { exportExtensionOf } from '../../../src-shared/file-formats.ts';
import type { Db } from '../../store/db.ts';
import { safeName, type ExportDeps } from './export.ts';
import { exportOffThread } from './export-thread.ts';
import { checkExportTarget, checkTargetFormat } from './export-target.ts';
import { readyDataset } from './summary.ts';

/**
 * Exports a dataset (see writeExport) to `path` (checked first: see
 * checkExportTarget), or to a temporary file
 * offered as a download, on a thread of its own (export-thread.ts): at a
 * million rows the rows read and rewritten held the server's thread up to
 * 0.13 s at a time.
 */
export async function exportDataset(
  db: Db,
  deps: ExportDeps,
  request: z.output<typeof ExportRequest>,
): Promise<z.output<typeof ExportResult>> {
  const dataset = readyDataset(db, request.dataset_id);
  if (request.path !== undefined) {
    checkTargetFormat(request.path, request.format);
    await checkExportTarget(request.path, {
      dataDir: db.memory ? null : dirname(db.name),
      overwrite: request.overwrite,
    });
  }
  const extension = exportExtensionOf(request.format, dataset.file_name);
  const fileName = `${safeName(dataset.name)}.clean.${extension}`;
  const path =
    request.path ?? join(deps.tempDir, `${dataset.id}-${Date.now().toString(36)}-${fileName}`);
  const written = await exportOffThread(db, {
    datasetId: dataset.id,
    path,
    format: request.format,
    includeVerdicts: request.include_verdicts,
    dropFlagged: request.drop_flagged,
    // A path given without overwrite: no file is replaced, not even one that appears meanwhile.
    replace: request.path === undefined || request.overwrite,
  });
  return {
    rows: written.rows,
    kept: written.kept,
    kept_rows: written.keptRows,
    bytes: written.bytes,
    path: request.path ?? null,
    download_url: request.path === undefined ? deps.downloads.register(path, fileName) : null,
  };
}
