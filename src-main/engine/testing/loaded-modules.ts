import { execFileSync } from 'node:child_process';

/**
 * Runs `script` (an ES module's body) in a Node process of its own, with a
 * resolve hook that sets `globalThis.loaded` to the Set of every module URL
 * resolved so far, and returns the JSON the script printed last. For tests
 * of what a module loads and when: the test's own process has loaded
 * everything already.
 */
export function runWithLoadedModules(script: string): Record<string, unknown> {
  const hook = `import { registerHooks } from 'node:module';
globalThis.loaded = new Set();
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  globalThis.loaded.add(resolved.url);
  return resolved;
} });`;
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(hook)}`,
      '--input-type=module',
      '-e',
      script,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}
