import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';

/** A file this user may execute that answers `--version`. */
export function runnable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
  } catch {
    return false; // absent, a broken link, or not executable by us
  }
  const probe = spawnSync(path, ['--version'], { stdio: 'ignore', timeout: 30_000 });
  if (probe.status === 0) return true;
  process.stderr.write(
    `e2e: ${path} exists but does not run (${probe.error?.message ?? `exit ${probe.status}`})\n`,
  );
  return false;
}
