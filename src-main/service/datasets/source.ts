import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../../src-shared/errors.ts';
import type { ImportSource } from '../../../src-shared/owner/datasets.ts';
import { formatFromPath, fsProblem, type FileFormat } from '../../files/index.ts';
import { KNOWN_EXTENSIONS } from '../../../src-shared/file-formats.ts';

/** Where uploaded files are (the browser transport); Electron passes paths instead. */
export interface Uploads {
  pathOf(uploadId: string): string;
  /** The name the file had on the user's machine, when known. */
  fileNameOf?(uploadId: string): string;
  /** Deletes an uploaded file once it is imported (its data is in the database then). */
  release?(uploadId: string): void;
}

/**
 * An error about a file, naming it as the user knows it: an upload's
 * temporary path means nothing to them (and tells a page where the server
 * keeps its files).
 */
export function namingTheFile(error: unknown, file: { path: string; fileName: string }): unknown {
  if (!(error instanceof AppError) || !error.message.includes(file.path)) return error;
  return new AppError(error.code, error.message.split(file.path).join(file.fileName), {
    cause: error,
  });
}

export interface ResolvedSource {
  path: string;
  fileName: string;
  format: FileFormat;
  bytes: number;
}

/** The file an import reads: its path, the name to show, its format and size. */
export async function resolveSource(
  source: ImportSource,
  uploads: Uploads,
): Promise<ResolvedSource> {
  const path = 'path' in source ? source.path : uploads.pathOf(source.upload_id);
  const fileName =
    'path' in source ? basename(path) : (uploads.fileNameOf?.(source.upload_id) ?? basename(path));
  const shown = 'path' in source ? path : fileName;
  // The file first: a folder's name has no extension either, and "unknown format" said nothing.
  let bytes: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    bytes = info.size;
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `cannot read ${JSON.stringify(shown)}: ${fsProblem(error)}`,
      {
        cause: error,
      },
    );
  }
  const format = formatFromPath(fileName) ?? formatFromPath(path);
  if (!format) {
    throw new AppError(
      'invalid_request',
      `cannot import ${JSON.stringify(fileName)}: unknown format; use ${KNOWN_EXTENSIONS}`,
    );
  }
  return { path, fileName, format, bytes };
}
