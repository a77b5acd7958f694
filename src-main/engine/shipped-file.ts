import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A data file the app ships beside its sources (`src-shared/...`,
 * `src-main/...`), found by walking up from the module asking: the same path
 * is found from the sources (the CLI, the tests, an install of the command
 * line alone) and from the bundle in `out/main`. Null when no folder above
 * holds it.
 */
export function findShippedFile(relative: string, moduleUrl: string): string | null {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
