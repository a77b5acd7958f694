import { execFileSync, spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { runnable } from './runnable.ts';

/**
 * The Chromium the e2e tests and the app bench drive, found or installed so
 * that `npm test` passes on a fresh machine with only Node:
 *
 * 1. `CHROMIUM_PATH`, when set (it must be a file this user can run);
 * 2. the system's Chromium or Chrome;
 * 3. Playwright's own download, when its cache has one;
 * 4. otherwise installed: `npx playwright install chromium` where downloads
 *    work, else Debian's `chromium` package when running as root with apt.
 *
 * A path that exists but cannot be run (no execute bit, a directory, a
 * wrapper that exits with an error, as Ubuntu's snap stub does without snap)
 * counts as absent, so the next candidate or the install is tried.
 *
 * Each step says what it does on stderr. It runs when the Playwright config
 * loads (once in the runner; the workers then find what it found or installed).
 */

const SYSTEM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

const say = (message: string): void => {
  process.stderr.write(`e2e: ${message}\n`);
};

function playwrightsOwn(): string | null {
  try {
    const path = chromium.executablePath();
    return path && runnable(path) ? path : null;
  } catch {
    return null; // no browser registry entry for this platform
  }
}

function installedSomewhere(): string | null {
  return SYSTEM_CANDIDATES.find((path) => runnable(path)) ?? playwrightsOwn();
}

function tryPlaywrightInstall(): boolean {
  say('no Chromium found; trying `npx playwright install chromium` (needs downloads)');
  const result = spawnSync('npx', ['--no-install', 'playwright', 'install', 'chromium'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 300_000,
  });
  return result.status === 0 && playwrightsOwn() !== null;
}

function tryDebianPackage(): boolean {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !runnable('/usr/bin/apt-get')) {
    say("cannot install Debian's chromium: not root, or no apt-get here");
    return false;
  }
  say("installing Debian's chromium package (apt-get update && apt-get install -y chromium)");
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env, timeout: 600_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env,
      timeout: 900_000,
    });
  } catch (error) {
    say(`apt-get failed: ${(error as Error).message}`);
    return false;
  }
  return runnable('/usr/bin/chromium');
}

let found: string | undefined;

export function chromiumExecutable(): string {
  if (found) return found;
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!runnable(configured)) {
      throw new Error(`CHROMIUM_PATH is set to ${configured}, which is not a Chromium that runs`);
    }
    return (found = configured);
  }
  let path = installedSomewhere();
  if (!path && (tryPlaywrightInstall() || tryDebianPackage())) path = installedSomewhere();
  if (!path) {
    throw new Error(
      'no Chromium for the e2e tests: set CHROMIUM_PATH, install Chromium (Debian: ' +
        '`apt-get install chromium`), or allow `npx playwright install chromium` to download',
    );
  }
  say(`using Chromium at ${path}`);
  // Later loads of the config (the workers) find it without searching again.
  process.env.CHROMIUM_PATH = path;
  return (found = path);
}
