import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOLVE_CACHE_ENV, resolveCacheFile } from './resolve-cache.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-resolve-cache-'));
  made.push(dir);
  return dir;
}

/** What `main.mjs` in `dir` prints, run in a process of its own with the cache in `file`. */
function runWithCache(dir: string, file: string): string {
  const hooks = new URL('./resolve-cache.ts', import.meta.url).href;
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { useResolveCache } = await import(${JSON.stringify(hooks)});
       useResolveCache();
       await import(${JSON.stringify(pathToFileURL(join(dir, 'main.mjs')).href)});`,
    ],
    { encoding: 'utf8', env: { ...process.env, [RESOLVE_CACHE_ENV]: file } },
  ).trim();
}

describe("a thread's imports resolved from the cache", () => {
  it('are learned and saved, used while the file they name exists, and resolved again once it is gone', () => {
    const dir = folder();
    writeFileSync(join(dir, 'main.mjs'), "import { name } from './a.mjs';\nconsole.log(name);\n");
    writeFileSync(join(dir, 'a.mjs'), "export const name = 'a';\n");
    writeFileSync(join(dir, 'b.mjs'), "export const name = 'b';\n");
    const file = join(dir, 'cache.json');

    expect(runWithCache(dir, file)).toBe('a');
    const learned = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { url: string }>;
    const key = Object.keys(learned).find((k) => k.includes('\n./a.mjs\n'));
    expect(key).toBeDefined();
    expect(learned[key as string]?.url).toBe(pathToFileURL(join(dir, 'a.mjs')).href);

    // The cache is what the import uses: pointed elsewhere, the import goes there.
    learned[key as string] = { url: pathToFileURL(join(dir, 'b.mjs')).href };
    writeFileSync(file, JSON.stringify(learned));
    expect(runWithCache(dir, file)).toBe('b');

    // A file the cache names that no longer exists is resolved again, and learned anew.
    rmSync(join(dir, 'b.mjs'));
    expect(runWithCache(dir, file)).toBe('a');
    const relearned = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { url: string }>;
    expect(relearned[key as string]?.url).toBe(pathToFileURL(join(dir, 'a.mjs')).href);
  });

  it('start from nothing when the cache file is unreadable', () => {
    const dir = folder();
    writeFileSync(join(dir, 'main.mjs'), "import { name } from './a.mjs';\nconsole.log(name);\n");
    writeFileSync(join(dir, 'a.mjs'), "export const name = 'a';\n");
    const file = join(dir, 'cache.json');
    writeFileSync(file, '{ half a fi');
    expect(runWithCache(dir, file)).toBe('a');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).length).toBeGreaterThan(0);
  });
});

describe('the cache file', () => {
  it('is another once the packages, package.json or Node change', () => {
    const app = folder();
    const cache = folder();
    writeFileSync(join(app, 'package.json'), '{}');
    mkdirSync(join(app, 'node_modules'));
    writeFileSync(join(app, 'node_modules', '.package-lock.json'), '{}');
    const first = resolveCacheFile(cache, app);
    expect(resolveCacheFile(cache, app)).toBe(first);
    expect(first.startsWith(cache)).toBe(true);

    utimesSync(join(app, 'node_modules', '.package-lock.json'), 1, 1); // an install
    const installed = resolveCacheFile(cache, app);
    expect(installed).not.toBe(first);
    writeFileSync(join(app, 'package.json'), '{"name":"x"}');
    expect(resolveCacheFile(cache, app)).not.toBe(installed);
    expect(resolveCacheFile(cache, folder())).not.toBe(resolveCacheFile(cache, app));
  });
});
