import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../../src-shared/errors.ts';
import { releaseHeap } from '../../engine/release-heap.ts';
import { openReadOnly } from '../../store/db.ts';
import { writeExport, type ExportJob } from './export.ts';
import type { ExportReply } from './export-thread.ts';

/**
 * One export (export-thread.ts), written from a read-only connection inside
 * one read transaction, so that every page read sees the same moment of the
 * database. Its answer is its only message.
 */

const { file, job } = workerData as { file: string; job: ExportJob };

async function exportOnce(): Promise<ExportReply> {
  const db = openReadOnly(file);
  try {
    db.exec('BEGIN');
    try {
      return { ok: true, written: await writeExport(db, job) };
    } finally {
      db.exec('COMMIT');
    }
  } catch (error) {
    return error instanceof AppError
      ? { ok: false, code: error.code, message: error.message }
      : { ok: false, code: null, message: (error as Error).message };
  } finally {
    db.close();
  }
}

parentPort?.postMessage(await exportOnce());
// Then it ends, its heap given back on this thread (see engine/release-heap.ts).
releaseHeap();
