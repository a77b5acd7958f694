import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOwnFile, writeOwnFile } from '../../engine/own-file.ts';

/**
 * Where each import of the command line's sources resolved, kept on disk
 * beside Node's compile cache, so that a thread's start does not ask again.
 *
 * Run from source (`bin/svc.js`), every thread (the main one and each engine
 * worker) resolves ~1,100 specifiers of ~450 modules: Node stats files and
 * reads package.json scopes for each, about a quarter of what loading the
 * modules costs once the compile cache has their code (a worker's file pass
 * and engine: 180-190 ms of wall time to load, 140-150 ms with this; ~70 ms
 * less CPU). Many workers pay it each, at once, on the way to their first
 * slice. The desktop app runs bundles and does not use it.
 *
 * What makes a remembered resolution safe to reuse: the file it names still
 * exists (checked at every use: ~3 µs), and everything else a resolution
 * reads is what it was learned with. The file's name is a hash of that: Node's
 * version and flags (a loader or `--preserve-symlinks` resolves otherwise),
 * NODE_PATH, the app's folder, its package.json and the lockfiles and npm's
 * record of what is installed (an install or an upgrade starts a new file).
 * Only `import` is served: `require.resolve` may be asked with `paths` this
 * hook is not told of. Our own specifiers are paths with their extension,
 * which resolve the same way whatever else changed. A file of another user,
 * or one others may write, is not read (anyone could plant one in a shared
 * temporary folder).
 */

/** The environment variable naming the cache file: set by bin/svc.js, inherited by workers. */
export const RESOLVE_CACHE_ENV = 'SVC_RESOLVE_CACHE';

/** What is kept of an entry; a new shape gets a new version, hence a new file. */
const VERSION = 'resolve-cache 1';

/** Files not used for this long are removed when another is saved (old installs, test folders). */
const UNUSED_MS = 7 * 24 * 3600 * 1000;

interface Resolved {
  url: string;
  format?: string | null | undefined;
}

/** What a resolution may depend on besides its parent and specifier, in the app at `appRoot`. */
const INSTALL_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  join('node_modules', '.package-lock.json'),
];

/** The cache file for the app at `appRoot`, in `directory` (Node's compile cache folder). */
export function resolveCacheFile(
  directory: string,
  appRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): string {
  const hash = createHash('sha256').update(
    [VERSION, process.version, appRoot, execArgv.join(' '), env.NODE_OPTIONS, env.NODE_PATH]
      .map((part) => part ?? '')
      .join('\n'),
  );
  for (const file of INSTALL_FILES) {
    const stat = statSync(join(appRoot, file), { throwIfNoEntry: false });
    hash.update(stat ? `\n${file} ${stat.size} ${stat.mtimeMs}` : `\n${file} none`);
  }
  return join(directory, `svc-resolve-${hash.digest('hex').slice(0, 16)}.json`);
}

const isEntry = (value: unknown): value is Resolved =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Resolved).url === 'string' &&
  (value as Resolved).url.startsWith('file:') &&
  ['string', 'undefined'].includes(typeof (value as Resolved).format);

function read(file: string): Map<string, Resolved> {
  const out = new Map<string, Resolved>();
  try {
    const text = readOwnFile(file);
    if (text === undefined) return out;
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return out;
    for (const [key, value] of Object.entries(parsed)) if (isEntry(value)) out.set(key, value);
  } catch {
    // None yet, or unreadable: learned again.
  }
  return out;
}

/** The file named by a cached URL exists (a URL that is no path is no hit). */
function exists(url: string): boolean {
  try {
    return existsSync(fileURLToPath(url));
  } catch {
    return false;
  }
}

let learned: Map<string, Resolved> | undefined;
let cacheFile: string | undefined;

/**
 * Resolves this thread's imports from the cache file named by
 * SVC_RESOLVE_CACHE (nothing when it is unset or empty), learning those it
 * lacks. Call before the imports it should serve; `saveResolveCache` writes
 * what was learned (and is called as the thread exits).
 */
export function useResolveCache(file: string | undefined = process.env[RESOLVE_CACHE_ENV]): void {
  if (!file || learned) return;
  const known = read(file);
  const fresh = new Map<string, Resolved>();
  learned = fresh;
  cacheFile = file;
  registerHooks({
    resolve(specifier, context, next) {
      const parent = context.parentURL;
      if (
        !parent?.startsWith('file:') ||
        specifier.startsWith('node:') ||
        context.conditions.includes('require')
      ) {
        return next(specifier, context);
      }
      const key = `${parent}\n${specifier}\n${context.conditions.join(',')}`;
      const hit = known.get(key);
      if (hit && exists(hit.url)) return { url: hit.url, format: hit.format, shortCircuit: true };
      const resolved = next(specifier, context);
      if (resolved.url.startsWith('file:')) {
        const entry: Resolved = { url: resolved.url };
        if (typeof resolved.format === 'string') entry.format = resolved.format;
        known.set(key, entry);
        fresh.set(key, entry);
      }
      return resolved;
    },
  });
  process.once('exit', saveResolveCache);
}

/**
 * Adds what this thread learned to the cache file (read again first: other
 * threads write theirs too; two saving at once may keep only one's, learned
 * again next time), written whole beside it and renamed into place so a
 * reader never sees half of it. Never throws: a cache not written is learned
 * again next time.
 */
export function saveResolveCache(): void {
  if (!learned || !cacheFile || learned.size === 0) return;
  try {
    const all = read(cacheFile);
    for (const [key, entry] of learned) all.set(key, entry);
    writeOwnFile(cacheFile, JSON.stringify(Object.fromEntries(all)));
    learned.clear();
    removeUnused(cacheFile);
  } catch {
    // A read-only or full cache folder: nothing is lost but time.
  }
}

/** Removes the cache files beside `kept` that no thread has saved to for a week. */
function removeUnused(kept: string): void {
  const directory = join(kept, '..');
  for (const name of readdirSync(directory)) {
    if (!name.startsWith('svc-resolve-')) continue;
    const path = join(directory, name);
    if (path === kept) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > UNUSED_MS) rmSync(path, { force: true });
  }
}
