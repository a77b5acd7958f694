import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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

describe('what the cache keeps', () => {
  /** A package with an entry for import and another for require, and a CommonJS file of a scope without a type. */
  function packages(dir: string): void {
    const pkg = join(dir, 'node_modules', 'twofold');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'twofold', exports: { import: './esm.mjs', require: './cjs.cjs' } }),
    );
    writeFileSync(join(pkg, 'esm.mjs'), "export const via = 'import';\n");
    writeFileSync(join(pkg, 'cjs.cjs'), "exports.via = 'require';\n");
    mkdirSync(join(dir, 'plain'));
    writeFileSync(join(dir, 'plain', 'package.json'), '{}');
    writeFileSync(join(dir, 'plain', 'old.js'), 'module.exports = { kind: typeof require };\n');
    writeFileSync(
      join(dir, 'main.mjs'),
      [
        "import { createRequire } from 'node:module';",
        "import { via } from 'twofold';",
        "import old from './plain/old.js';",
        'const required = createRequire(import.meta.url)("twofold").via;',
        'console.log([via, required, old.kind].join(" "));',
      ].join('\n'),
    );
  }

  it("resolves a package's import and require apart, and a file's format as Node does, run after run", () => {
    const dir = folder();
    packages(dir);
    const file = join(dir, 'cache.json');
    for (let run = 0; run < 3; run++)
      expect(runWithCache(dir, file)).toBe('import require function');
    const keys = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
    expect(keys.some((key) => key.includes('\ntwofold\n'))).toBe(true);
    // require() is never served from the cache (require.resolve may name other paths).
    expect(keys.filter((key) => key.split('\n')[2]?.includes('require'))).toEqual([]);
  });

  it('merges what two processes learned, and ignores entries of another shape', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.mjs'), "export const name = 'a';\n");
    writeFileSync(join(dir, 'b.mjs'), "export const name = 'b';\n");
    const file = join(dir, 'cache.json');
    writeFileSync(join(dir, 'main.mjs'), "import { name } from './a.mjs';\nconsole.log(name);\n");
    runWithCache(dir, file);
    writeFileSync(join(dir, 'main.mjs'), "import { name } from './b.mjs';\nconsole.log(name);\n");
    runWithCache(dir, file);
    const keys = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
    expect(keys.some((key) => key.includes('\n./a.mjs\n'))).toBe(true);
    expect(keys.some((key) => key.includes('\n./b.mjs\n'))).toBe(true);

    const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const key of Object.keys(entries)) entries[key] = { url: 42 };
    writeFileSync(file, JSON.stringify(entries));
    expect(runWithCache(dir, file)).toBe('b');
  });

  it.runIf(typeof process.getuid === 'function')('is not read from a file others may write', () => {
    const dir = folder();
    writeFileSync(join(dir, 'main.mjs'), "import { name } from './a.mjs';\nconsole.log(name);\n");
    writeFileSync(join(dir, 'a.mjs'), "export const name = 'a';\n");
    writeFileSync(join(dir, 'b.mjs'), "export const name = 'b';\n");
    const file = join(dir, 'cache.json');
    runWithCache(dir, file);
    const learned = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { url: string }>;
    for (const key of Object.keys(learned)) {
      if (key.includes('\n./a.mjs\n'))
        learned[key] = { url: pathToFileURL(join(dir, 'b.mjs')).href };
    }
    writeFileSync(file, JSON.stringify(learned));
    chmodSync(file, 0o666);
    expect(runWithCache(dir, file)).toBe('a');
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
    // A loader, other flags or NODE_PATH resolve otherwise: each its own file.
    const plain = resolveCacheFile(cache, app, {}, []);
    expect(resolveCacheFile(cache, app, {}, ['--preserve-symlinks'])).not.toBe(plain);
    expect(resolveCacheFile(cache, app, { NODE_OPTIONS: '--import=x' }, [])).not.toBe(plain);
    expect(resolveCacheFile(cache, app, { NODE_PATH: '/x' }, [])).not.toBe(plain);
    expect(resolveCacheFile(cache, app, {}, [])).toBe(plain);
  });
});
