import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * exists (checked at every use: ~3 µs), and the installed packages, this
 * package's package.json and Node are those it was learned with (the file's
 * name is a hash of them: an install or an upgrade starts a new one). Our
 * own specifiers are paths with their extension, which resolve the same way
 * whatever else changed.
 */

/** The environment variable naming the cache file: set by bin/svc.js, inherited by workers. */
export const RESOLVE_CACHE_ENV = 'SVC_RESOLVE_CACHE';

interface Resolved {
  url: string;
  format?: string | null | undefined;
}

/**
 * The cache file for the app at `appRoot`, in `directory` (Node's compile
 * cache folder): named by Node's version, the app's folder, and the size and
 * time of change of its package.json and of npm's record of what is
 * installed (node_modules/.package-lock.json, rewritten by every install).
 */
export function resolveCacheFile(directory: string, appRoot: string): string {
  const hash = createHash('sha256').update(`${process.version}\n${appRoot}\n`);
  for (const file of ['package.json', join('node_modules', '.package-lock.json')]) {
    const stat = statSync(join(appRoot, file), { throwIfNoEntry: false });
    hash.update(stat ? `${file} ${stat.size} ${stat.mtimeMs}\n` : `${file} none\n`);
  }
  return join(directory, `svc-resolve-${hash.digest('hex').slice(0, 16)}.json`);
}

function read(file: string): Map<string, Resolved> {
  try {
    return new Map(
      Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Resolved>),
    );
  } catch {
    return new Map(); // none yet, or unreadable: learned again
  }
}

let learned: Map<string, Resolved> | undefined;
let cacheFile: string | undefined;

/**
 * Resolves this thread's imports from the cache file named by
 * SVC_RESOLVE_CACHE (nothing when it is unset), learning those it lacks.
 * Call before the imports it should serve; `saveResolveCache` writes what
 * was learned.
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
      if (!parent?.startsWith('file:') || specifier.startsWith('node:')) {
        return next(specifier, context);
      }
      // A package may resolve otherwise for require() than for import: the conditions are part of it.
      const key = `${parent}\n${specifier}\n${context.conditions.join(',')}`;
      const hit = known.get(key);
      if (hit && existsSync(fileURLToPath(hit.url))) {
        return { url: hit.url, format: hit.format, shortCircuit: true };
      }
      const resolved = next(specifier, context);
      if (resolved.url.startsWith('file:')) {
        const entry = { url: resolved.url, format: resolved.format };
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
 * threads write theirs too), written whole beside it and renamed into place
 * so a reader never sees half of it. Never throws: a cache not written is
 * learned again next time.
 */
export function saveResolveCache(): void {
  if (!learned || !cacheFile || learned.size === 0) return;
  try {
    const all = read(cacheFile);
    for (const [key, entry] of learned) all.set(key, entry);
    const temp = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(temp, JSON.stringify(Object.fromEntries(all)));
    renameSync(temp, cacheFile);
    learned.clear();
  } catch {
    // A read-only or full cache folder: nothing is lost but time.
  }
}
