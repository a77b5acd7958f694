import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../../../src-shared/errors.ts';
import type { OwnerEvent } from '../../../src-shared/owner-api.ts';
import type { DatasetSummary, ImportSource, ShapeId } from '../../../src-shared/owner/datasets.ts';
import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  finishImport,
  importErrorRecords,
  insertDataset,
  insertImportErrors,
  recordImportMapping,
  recordImportProgress,
  recordNotUtf8Line,
  unusedDatasetName,
  type ImportErrorRecord,
} from '../../store/datasets.ts';
import { leanRowInserter, type LeanRowRecord } from '../../store/datasets-rows.ts';
import { beginBulk, endBulk } from '../../store/bulk-writes.ts';
import { unsynced } from '../../store/commit.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { firstNonUtf8Line, readLayout } from '../../files/index.ts';
import { checkpointOffThread } from './wal-checkpoint.ts';
import { syncWalOffThread } from './wal-sync.ts';
import { gridQueries } from './grid-queries.ts';
import { importRegistry } from './import-registry.ts';
import { newId } from './ids.ts';
import type { MappingColumns } from './import-batch.ts';
import { readImportBatches } from './import-reader.ts';
import { removeDataset } from './remove.ts';
import { namingTheFile, resolveSource, type Uploads } from './source.ts';
import { readyDataset, summaryOf } from './summary.ts';
import { Throttle } from './throttle.ts';

/**
 * Rows (and row errors) written per transaction: each holds the main thread
 * while it is written (5,000 rows: ~45 ms; 2,000: 18-22 ms of CPU; 1,000 left
 * the import's longest hold at 20.3 ms with the garbage collector's share,
 * over the 20 ms a hold may take; the commits of an import are not fsync'd,
 * so more of them cost little).
 */
export const IMPORT_BATCH_ROWS = 500;
/**
 * The first transaction is smaller: its rows are on screen while the rest
 * imports (the grid reads a dataset still importing), whatever the file's size.
 */
export const FIRST_BATCH_ROWS = 500;
/**
 * How long the reading and mapping of chunks goes on before the server
 * answers (checked after each chunk: a turn is this plus at most one).
 */
const TURN_MS = 6;

/** Import progress events: at most one per this many milliseconds, then a final one. */
export const IMPORT_EVENT_INTERVAL_MS = 100;

export interface ImportDeps {
  uploads: Uploads;
  emit: (event: OwnerEvent) => void;
}

export interface ImportRequest {
  source: ImportSource;
  shape: ShapeId;
  /** Read the rows through this field mapping instead of the shape. */
  mapping?: FieldMapping | undefined;
  /** OpenAssistant trees: a row per tree along the best path (default), or a row per path. */
  paths?: OasstPaths | undefined;
  name: string;
}

/**
 * Imports a file as a dataset, streamed: rows are read one at a time and
 * written in transactions of IMPORT_BATCH_ROWS, so memory stays bounded
 * whatever the file's size. Rows are mapped with the field mapping given, or
 * with the chosen shape (rows that carry `task_type` are samples then). The
 * dataset keeps the mapping in force and the file's layout; a JSON Lines row
 * keeps its line as it was, a CSV row its raw record, so an export gives
 * back the same bytes where nothing changed. A row that cannot be read or
 * mapped is stored as an import error with its row number, never dropped
 * silently. Progress goes out as `import` events.
 *
 * `bytes_read` is approximate: the readers expose no byte offset, so it is
 * the size of the rows read as compact JSON (exact for compact JSON Lines,
 * near for other JSON, rougher for CSV and Parquet), capped below the file's
 * size until the final event.
 */
export async function importDataset(
  ctx: ServiceContext,
  deps: ImportDeps,
  request: ImportRequest,
): Promise<DatasetSummary> {
  const file = await resolveSource(request.source, deps.uploads);
  const layout = await readLayout(file.path, file.format).catch((error: unknown) => {
    throw 'upload_id' in request.source ? namingTheFile(error, file) : error;
  });
  const id = newId('ds');
  const name = unusedDatasetName(ctx.db, request.name);
  insertDataset(ctx.db, {
    id,
    name,
    file_name: file.fileName,
    format: file.format,
    shape: request.mapping ? 'custom' : request.shape,
    layout_json: JSON.stringify(layout),
  });
  let mapping: MappingColumns | undefined;
  const counts = { rows: 0, errors: 0, bytes: 0 };
  // A delete of the dataset while it imports stops the import (handlers.ts).
  const controller = new AbortController();
  let ended = (): void => {};
  importRegistry(ctx.db).set(id, {
    controller,
    ended: new Promise<void>((resolve) => (ended = resolve)),
  });
  const stopIfDeleted = (): void => {
    if (!controller.signal.aborted) return;
    throw new AppError(
      'cancelled',
      `the import of ${name} was stopped: the dataset was deleted while it imported ` +
        `(${counts.rows} rows read)`,
    );
  };
  const taskTypes = new Set<Sample['task_type']>();
  let rows: LeanRowRecord[] = [];
  let errors: ImportErrorRecord[] = [];
  const insert = leanRowInserter(ctx.db, id);
  let flushed = false;
  const flush = (): void => {
    const [pendingRows, pendingErrors] = [rows, errors];
    unsynced(ctx.db, () => {
      for (const row of pendingRows) insert(row);
      insertImportErrors(ctx.db, id, pendingErrors);
      recordImportProgress(ctx.db, id, {
        row_count: counts.rows,
        error_count: counts.errors,
        task_types: [...taskTypes].sort(),
      });
    });
    rows = [];
    errors = [];
  };
  const throttle = new Throttle(IMPORT_EVENT_INTERVAL_MS);
  const emit = (done: boolean): void =>
    deps.emit({
      type: 'import',
      dataset_id: id,
      name,
      asked_name: request.name,
      rows: counts.rows,
      errors: counts.errors,
      bytes_read: done ? file.bytes : Math.min(counts.bytes, Math.floor(file.bytes * 0.99)),
      bytes_total: file.bytes,
      done,
    });

  // Beside the rows' read: where the file first holds bytes that are not UTF-8 (its readers take
  // each for U+FFFD). Not Parquet: its text lies in compressed column pages, not in lines.
  const notUtf8 =
    file.format === 'parquet'
      ? Promise.resolve(undefined)
      : firstNonUtf8Line(file.path, controller.signal);
  // Awaited before the import ends; a failed import never asks for it again.
  notUtf8.catch(() => undefined);

  beginBulk(ctx.db);
  try {
    const batches = readImportBatches(file.path, file.bytes, {
      format: file.format,
      shape: request.mapping ? undefined : request.shape,
      mapping: request.mapping,
      paths: request.paths,
      onMapping: (columns) => {
        mapping = columns;
        // Stored now: rows read while the import goes on are mapped with it.
        recordImportMapping(ctx.db, id, columns);
      },
    });
    // Batches already read arrive one after another without the event loop turning: the server
    // answers between them once the batches of this turn took TURN_MS, and before each write.
    let turnStarted = performance.now();
    const letServerAnswer = async (): Promise<void> => {
      await nextTurn();
      turnStarted = performance.now();
    };
    for await (const batch of batches) {
      stopIfDeleted();
      for (const error of batch.errors) errors.push(error);
      counts.errors += batch.errors.length;
      for (let r = 0; r < batch.originals.length; r++) {
        const original = batch.originals[r] as string;
        const taskType = batch.taskTypes[r] as Sample['task_type'];
        counts.bytes += original.length + 1;
        taskTypes.add(taskType);
        rows.push({
          row_index: counts.rows,
          source_row: batch.sourceRows[r] as number,
          task_type: taskType,
          original_json: original,
          source_raw: batch.raws[r] ?? null,
          source_path: batch.paths[r] ?? null,
        });
        counts.rows++;
      }
      if (rows.length + errors.length >= (flushed ? IMPORT_BATCH_ROWS : FIRST_BATCH_ROWS)) {
        await letServerAnswer();
        stopIfDeleted();
        flush();
        await letServerAnswer();
        // The first rows are readable: say so at once, whatever the throttle.
        if (!flushed && counts.rows > 0) {
          flushed = true;
          emit(false);
          // Their search index is built as they are committed (the builder's worker).
          gridQueries(ctx.db).reindex();
          continue;
        }
      }
      // Progress tells of rows that can be read: none before the first batch is in.
      if (flushed && throttle.due()) emit(false);
      if (performance.now() - turnStarted > TURN_MS) await letServerAnswer();
    }
    stopIfDeleted();
    flush();
    if (counts.rows === 0) {
      throw new AppError(
        'invalid_request',
        counts.errors === 0
          ? `${file.fileName} has no rows`
          : `none of the ${counts.errors} rows of ${file.fileName} could be imported as ` +
              `${request.mapping ? 'mapped' : request.shape} (first: ${firstError(ctx, id)})`,
      );
    }
    // The rows reach the disk off the main thread; the commit below then fsyncs little.
    await syncWalOffThread(ctx.db);
    stopIfDeleted();
    const notUtf8Line = await notUtf8;
    stopIfDeleted();
    // Before the dataset is ready: whoever reads it ready reads the note.
    if (notUtf8Line !== undefined) recordNotUtf8Line(ctx.db, id, notUtf8Line);
    finishImport(ctx.db, id, {
      row_count: counts.rows,
      error_count: counts.errors,
      task_types: [...taskTypes].sort(),
      ...(mapping ?? { mapping_json: null, paths: null }),
    });
  } catch (error) {
    // Stops the UTF-8 read beside it, which would otherwise read the rest of the file for nothing.
    controller.abort();
    await removeDataset(ctx.db, id);
    throw 'upload_id' in request.source ? namingTheFile(error, file) : error;
  } finally {
    endBulk(ctx.db, checkpointOffThread);
    emit(true);
    importRegistry(ctx.db).delete(id);
    ended();
  }
  // An uploaded copy has served its purpose: the rows are in the database.
  if ('upload_id' in request.source) deps.uploads.release?.(request.source.upload_id);
  // Its search index is completed in the background (the builder's worker).
  gridQueries(ctx.db).reindex();
  return summaryOf(ctx.db, readyDataset(ctx.db, id));
}

function firstError(ctx: ServiceContext, id: string): string {
  const [first] = importErrorRecords(ctx.db, id, 1);
  return first ? `row ${first.row}: ${first.message}` : 'none';
}
