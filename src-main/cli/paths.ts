import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The default data directory: the same folder Electron uses as `userData` for
 * the app, so `svc` on the command line and the desktop app share one database.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') {
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'svc');
  }
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'svc');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'svc');
}

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** The built renderer, served at `/` by `svc serve`. */
export const RENDERER_DIR = join(repoRoot, 'out', 'renderer');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
