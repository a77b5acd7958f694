import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The one door to `../shared` (the datasets and benchmarks that sit beside
 * the project in this workplace, not in the repository): tests, the bench and
 * the e2e specs ask it for a file and learn whether it is there.
 *
 * A user's clone has no `../shared`, so whatever reads it must skip with a
 * reason rather than fail. Non-commercial files (the Alpaca samples) live only
 * there and are never copied into the repository.
 */

/** `../shared` beside the repository (this file is src-main/engine/testing/). */
export const SHARED_DIR = resolve(import.meta.dirname, '..', '..', '..', '..', 'shared');

export interface SharedFile {
  /** Absolute path, whether or not it exists. */
  readonly path: string;
  readonly present: boolean;
  /** One line that says why a test reading it skipped. */
  readonly reason: string;
}

/** A file under `../shared`, e.g. `sharedFile('datasets/alpaca_original_300.jsonl')`. */
export function sharedFile(relative: string): SharedFile {
  const path = join(SHARED_DIR, relative);
  const present = existsSync(path);
  return {
    path,
    present,
    reason: present ? '' : `skipped: needs ../shared/${relative}, absent beside this clone`,
  };
}

/** The rows of a JSONL file under `../shared`, or none when it is absent. */
export function sharedJsonl<T = Record<string, unknown>>(relative: string): T[] {
  const file = sharedFile(relative);
  if (!file.present) return [];
  return readFileSync(file.path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * The title of a test or suite that needs these files: the name as it is
 * when they are present, else the name with the reason (vitest's reporter
 * then shows why it skipped), and whether to skip.
 */
export function needsShared(
  name: string,
  ...relatives: string[]
): { readonly name: string; readonly skip: boolean } {
  const missing = relatives.map(sharedFile).find((file) => !file.present);
  if (!missing) return { name, skip: false };
  // The default reporter lists no skipped titles: say why on stderr too, once a test.
  process.stderr.write(`"${name}" ${missing.reason}\n`);
  return { name: `${name} (${missing.reason})`, skip: true };
}
