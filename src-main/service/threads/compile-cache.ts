import { enableCompileCache } from 'node:module';

/**
 * Node's compile cache for every thread started after this call, in
 * `folder` (the desktop app: the user's own profile rather than a shared
 * temporary folder; left out: Node's default, as `bin/svc.js` has it). V8's
 * code for each module is then read at a thread's start instead of compiled.
 * The threads use it through NODE_COMPILE_CACHE, which they inherit, and so
 * does what keeps its own copies there (eld's tables, see
 * engine/dataset/eld-tables.ts). An explicit NODE_COMPILE_CACHE (or
 * NODE_DISABLE_COMPILE_CACHE) is left as it is. Returns the folder in use,
 * if any: a cache that cannot be made only costs the time it saves.
 */
export function useCompileCache(folder?: string): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (process.env.NODE_COMPILE_CACHE) return process.env.NODE_COMPILE_CACHE;
  const { directory } = enableCompileCache(folder);
  if (directory) process.env.NODE_COMPILE_CACHE = directory;
  return directory;
}
