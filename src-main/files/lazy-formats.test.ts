import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The formats' libraries (csv-parse, papaparse, @streamparser/json,
 * hyparquet, hyparquet-writer) are loaded when a file of their format is
 * read or written: every engine worker and file command imports this module
 * to read JSON Lines, and loading them all was ~0.1 s of each one's start.
 * Checked in a process of its own: this one's module registry has them.
 */
const index = JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)));
const hook = `import { registerHooks } from 'node:module';
globalThis.loaded = new Set();
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  const name = /\\/node_modules\\/((@[^/]+\\/)?[^/]+)\\//.exec(resolved.url)?.[1];
  if (name) globalThis.loaded.add(name);
  return resolved;
} });`;
const LIBRARIES = ['csv-parse', 'papaparse', '@streamparser/json', 'hyparquet', 'hyparquet-writer'];

describe('the file formats', () => {
  it("load a format's library at its first file of that format, not with the module", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lazy-formats-'));
    writeFileSync(join(dir, 'a.jsonl'), '{"text":"one"}\n');
    writeFileSync(join(dir, 'b.csv'), 'text\ntwo\n');
    const script = `
const files = await import(${index});
const libraries = ${JSON.stringify(LIBRARIES)};
const seen = () => libraries.filter((name) => globalThis.loaded.has(name));
const rows = async (path) => { const out = []; for await (const row of files.readRows(path)) out.push(row); return out; };
const jsonl = await rows(${JSON.stringify(join(dir, 'a.jsonl'))});
const afterJsonl = seen();
const csv = await rows(${JSON.stringify(join(dir, 'b.csv'))});
console.log(JSON.stringify({ afterJsonl, afterCsv: seen(), jsonl: jsonl.length, csv: csv.length }));
`;
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
    const seen = JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(seen).toEqual({ afterJsonl: [], afterCsv: ['csv-parse'], jsonl: 1, csv: 1 });
  });
});
