import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { link, rename, rm, stat } from 'node:fs/promises';
import { AppError } from '../../../src-shared/errors.ts';
import { fileName, fsProblem } from '../errors.ts';

/**
 * A file written under a temporary name beside its target, then renamed over
 * the target once complete: readers of the target see its old self (or
 * nothing) until `commit`, and the whole new file after, never half of it.
 * Beside the target, so the rename stays on one file system. A target that
 * is a device, a pipe or a socket is written directly instead.
 */
export interface TempFile {
  /** Where to write: `<target>.<8 hex digits>.partial`, or `<target>.partial`. */
  readonly path: string;
  /** Renames the written file over the target (see `replace`). */
  commit(): Promise<void>;
  /** Removes the temporary file, if there is one. */
  discard(): Promise<void>;
}

/**
 * `unique` (the default) tags the temporary name, so two writers of one target
 * (two exports from the app) never share a temporary file. The CLI, one writer
 * per run, passes `unique: false`: its `<target>.partial` is overwritten by a
 * rerun instead of leaving tagged leftovers beside its output.
 */
export function tempFileBeside(
  target: string,
  { unique = true, replace = true }: { unique?: boolean; replace?: boolean } = {},
): TempFile {
  // A device, a pipe or a socket (`--out /dev/null`, `/dev/stdout`, a shell's `>(gzip)`) is
  // written itself: a rename would put a regular file in its place (as root, /dev/null became
  // one), and it holds no old self for a reader to see.
  if (isStream(target)) return { path: target, commit: async () => {}, discard: async () => {} };
  const path = unique ? `${target}.${randomUUID().slice(0, 8)}.partial` : `${target}.partial`;
  return {
    path,
    commit: () => (replace ? rename(path, target) : linkAsNew(path, target)),
    discard: () => rm(path, { force: true }),
  };
}

/** Whether the target exists and is neither a regular file nor a folder (statSync follows links). */
function isStream(target: string): boolean {
  const found = statSync(target, { throwIfNoEntry: false });
  return found !== undefined && !found.isFile() && !found.isDirectory();
}

const appeared = (target: string): AppError =>
  new AppError(
    'invalid_request',
    `${target} appeared while the new file was written, and was left as it is: choose another path, or ask to replace it`,
  );

/**
 * Puts the written file at `target` only if nothing is there when it is put:
 * a hard link fails with EEXIST rather than replace a file that appeared
 * while it was written (a rename replaces whatever is there). A file system
 * without hard links falls back to a check and a rename, which a file
 * created between the two would still lose to.
 */
async function linkAsNew(path: string, target: string): Promise<void> {
  try {
    await link(path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw appeared(target);
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') {
      throw error;
    }
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    ) {
      throw appeared(target);
    }
    await rename(path, target);
    return;
  }
  await rm(path, { force: true });
}

export interface WriteOptions {
  /** Replace a file already at the target (the default); false refuses one, even one that appears while writing. */
  replace?: boolean;
}

/**
 * Writes rows to `target` whole or not at all: `write` fills a temporary file
 * beside it (counting the rows it writes), which is then renamed over the
 * target, or removed when anything fails. An error that is not an AppError
 * becomes one naming the target. Returns the rows written and the file's size
 * in bytes.
 */
export async function writeRowsWhole(
  target: string,
  write: (path: string, counter: { rows: number }) => Promise<void>,
  { replace = true }: WriteOptions = {},
): Promise<{ rows: number; bytes: number }> {
  const file = tempFileBeside(target, { replace });
  const counter = { rows: 0 };
  try {
    await write(file.path, counter);
    await file.commit();
    return { rows: counter.rows, bytes: (await stat(target)).size };
  } catch (error) {
    await file.discard();
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_request', `cannot write ${fileName(target)}: ${fsProblem(error)}`, {
      cause: error,
    });
  }
}
