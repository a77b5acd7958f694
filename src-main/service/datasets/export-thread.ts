import { AppError, type ErrorCode } from '../../../src-shared/errors.ts';
import { runOnce, workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';
import { writeExport, type ExportJob, type WrittenExport } from './export.ts';

/** What the export's thread answers. */
export type ExportReply =
  { ok: true; written: WrittenExport } | { ok: false; code: ErrorCode | null; message: string };

/**
 * Writes an export on a worker thread of its own (export-worker.ts) with a
 * read-only connection to the database file, in one read transaction: the
 * file is the dataset as it was when the export began, whatever a run or a
 * review writes meanwhile, and the server's thread only waits for the
 * answer. An in-memory database (tests) has no file to share: its export
 * runs here. A worker that cannot start is said and the export runs here
 * too; an error of the export itself (a path that cannot be written) comes
 * back as the same AppError it would be here.
 */
export async function exportOffThread(db: Db, job: ExportJob): Promise<WrittenExport> {
  if (db.memory) return writeExport(db, job);
  let reply: ExportReply;
  try {
    reply = await runOnce<ExportReply>(
      workerScript(import.meta.url, 'export-worker.ts', 'export-worker.js'),
      { file: db.name, job },
      'svc-export',
    );
  } catch (error) {
    console.error(`the export's thread did not run (${(error as Error).message}): exporting here`);
    return writeExport(db, job);
  }
  if (reply.ok) return reply.written;
  if (reply.code !== null) throw new AppError(reply.code, reply.message);
  throw new Error(reply.message);
}
