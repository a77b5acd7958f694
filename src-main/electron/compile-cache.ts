import { enableCompileCache } from 'node:module';

/**
 * Node's compile cache for the desktop app, in the user's own profile
 * (`folder`) rather than a shared temporary folder. The bundles the app runs
 * are compiled by V8 at every start of every thread (the scan's, the index's,
 * the engine's workers): with the cache, a thread after the first start reads
 * V8's code instead. The threads use it through NODE_COMPILE_CACHE, which they
 * inherit, and so does what keeps its own copies there (eld's tables, see
 * engine/dataset/eld-tables.ts). Called before the first thread starts; an
 * explicit NODE_COMPILE_CACHE (or NODE_DISABLE_COMPILE_CACHE) is left as it is.
 * Returns the folder in use, if any: a cache that cannot be made only costs
 * the time it saves.
 */
export function useCompileCache(folder: string): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (process.env.NODE_COMPILE_CACHE) return process.env.NODE_COMPILE_CACHE;
  const { directory } = enableCompileCache(folder);
  if (directory) process.env.NODE_COMPILE_CACHE = directory;
  return directory;
}
