import { statSync } from 'node:fs';

/**
 * Whether a cache file may be trusted: this user's, and no one else may write
 * it (POSIX). Caches live in shared temporary folders by default (Node's
 * compile cache), where anyone could plant a file under the expected name.
 */
export function ownFile(file: string): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return false;
  if (typeof process.getuid !== 'function') return true; // Windows: the user's own profile folder
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}
