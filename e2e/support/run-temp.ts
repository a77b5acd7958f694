import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary folder for one test run (vitest's, Playwright's): TMPDIR points
 * into it while the run lasts, so the tests, their workers and every process
 * they start make their files there, and the whole folder goes when the run
 * ends. Left to each test, a run kept ~200 folders (~80 MB) in the system's
 * temporary folder, some of a GB (harnesses, data folders of killed servers,
 * e2e files); a developer's machine gathered 60 GB of them until a bench
 * failed on a full disk. Returns the teardown.
 */
export function useRunTempDir(prefix: string): () => void {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) Reflect.deleteProperty(process.env, 'TMPDIR');
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
