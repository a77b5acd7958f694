import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

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
