import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { AppError } from '../../../src-shared/errors.ts';
import { formatFromPath, type FileFormat } from '../../files/index.ts';
import { FORMAT_EXTENSIONS, FORMAT_NAMES } from '../../../src-shared/file-formats.ts';

/** The names of the app's files in its data folder (svc.sqlite, svc-search-part-0.sqlite-wal, ...). */
const APP_FILE = /^svc[^/]*\.sqlite/;

export interface ExportTargetRules {
  /** The folder of the app's database (its search index and caches beside it); null in memory. */
  dataDir: string | null;
  /** The caller asked to replace an existing file (the save dialog has asked the person). */
  overwrite: boolean;
}

/**
 * Refuses an export path that would destroy something, before any row is
 * read. The owner API writes where it is told, over IPC and over HTTP alike,
 * and the server may run as a user who can write anywhere: a mistyped or
 * scripted path once replaced `/etc/passwd`. So the path must be absolute (a
 * relative one would land beside wherever the server was started), not one
 * of the app's own files (`svc*.sqlite*` in its data folder: the database,
 * its WAL, the search index, the signature cache; other files there are the
 * user's to write), not a folder, device or other special file, and not an
 * existing file unless `overwrite` says so. The export is renamed over its
 * target, so a link at the path is replaced, never what it points to. A
 * folder that is not there is named as such: the writer's `no such file`
 * read as if the file were the problem.
 */
export async function checkExportTarget(path: string, rules: ExportTargetRules): Promise<void> {
  if (!isAbsolute(path)) {
    throw new AppError(
      'invalid_request',
      `export path ${JSON.stringify(path)} is not absolute: give the full path of the file to write`,
    );
  }
  const target = resolve(path);
  if (rules.dataDir !== null && APP_FILE.test(basename(target))) {
    const folder = await realpathOrNull(dirname(target));
    if (folder !== null && folder === (await realpathOrNull(rules.dataDir))) {
      throw new AppError(
        'forbidden',
        `cannot export to ${target}: it is one of the app's own files (its database, search index or caches); choose another name`,
      );
    }
  }
  const existing = await lstat(target).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  });
  if (existing === null) {
    const folder = await lstat(dirname(target)).catch(() => null);
    if (folder === null) {
      throw new AppError(
        'invalid_request',
        `cannot export to ${target}: the folder ${dirname(target)} does not exist`,
      );
    }
    if (!folder.isDirectory() && !folder.isSymbolicLink()) {
      throw new AppError(
        'invalid_request',
        `cannot export to ${target}: ${dirname(target)} is not a folder`,
      );
    }
    return;
  }
  if (existing.isDirectory()) {
    throw new AppError('invalid_request', `cannot export to ${target}: it is a folder`);
  }
  if (!existing.isFile() && !existing.isSymbolicLink()) {
    throw new AppError('invalid_request', `cannot export to ${target}: it is not a regular file`);
  }
  if (!rules.overwrite) {
    throw new AppError(
      'invalid_request',
      `${target} already exists: export with "overwrite": true to replace it, or choose another path`,
    );
  }
}

async function realpathOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    // A folder that is not there holds nothing to protect; the writer reports it.
    return null;
  }
}

/**
 * Refuses a path whose extension names another format than the one asked
 * for (`out.csv` with JSON Lines): the file would hold one format under
 * another's name, and whatever opens it next (a spreadsheet, `svc`, the
 * app's own import, which goes by the extension) would misread it. An
 * extension no format claims (`.txt`, none) is the caller's choice.
 */
export function checkTargetFormat(path: string, format: FileFormat): void {
  const named = formatFromPath(path);
  if (named === undefined || named === format) return;
  throw new AppError(
    'invalid_request',
    `cannot export ${FORMAT_NAMES[format]} to ${path}: its name says ${FORMAT_NAMES[named]}; ` +
      `choose ${FORMAT_NAMES[named]}, or name the file ${FORMAT_EXTENSIONS[format]}`,
    { param: '/path' },
  );
}
