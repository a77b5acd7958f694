import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';

/** This user's, and no one else may write it (POSIX). */
function trusted(stat: Stats): boolean {
  if (typeof process.getuid !== 'function') return true; // Windows: the user's own profile folder
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

/**
 * A cache file's text, if it may be trusted: this user's, and no one else may
 * write it. Caches live in shared temporary folders by default (Node's
 * compile cache), where anyone could plant a file under the expected name;
 * the file is checked as opened (one descriptor), so it cannot be swapped
 * between the check and the read. Undefined when there is none, or it is not.
 */
export function readOwnFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined; // none (yet)
  }
  try {
    return trusted(fstatSync(fd)) ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * `text` into `file` as `readOwnFile` trusts it (this user's, no one else may
 * write it), whole or not at all: written beside it and renamed into place,
 * so a reader never sees half. Throws what failed, the partial file removed.
 */
export function writeOwnFile(file: string, text: string): void {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
