import { registerHooks } from 'node:module';

/**
 * The URL of every module this thread resolves from now on, as it grows
 * (the workers of worker-modules.test.ts: what a worker loads is what it
 * resolves; a hook registered later, as the resolution cache's, goes first).
 */
export function recordResolutions(): ReadonlySet<string> {
  const loaded = new Set<string>();
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      loaded.add(resolved.url);
      return resolved;
    },
  });
  return loaded;
}
