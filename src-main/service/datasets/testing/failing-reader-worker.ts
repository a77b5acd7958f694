import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../../src-shared/errors.ts';
import { encodeError } from '../../threads/wire-error.ts';
import type { FromReader, ToReader } from '../import-reader.ts';

/**
 * A stand-in for the import's reader (import-reader-worker.ts) whose reading
 * fails after the rows the import's thread read itself: what an error that
 * only the worker meets (the file unreadable midway) looks like from there.
 */
parentPort?.once('message', (message: ToReader) => {
  const after = message === 'more' ? 0 : message.row;
  const failed: FromReader = {
    type: 'failed',
    error: encodeError(
      new AppError('invalid_request', `the file could not be read after row ${after}`, {
        param: 'source',
      }),
    ),
  };
  parentPort?.postMessage(failed);
  parentPort?.close();
});
