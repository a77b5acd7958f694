import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWithLoadedModules } from '../engine/testing/loaded-modules.ts';

/**
 * The formats' libraries (csv-parse, papaparse, @streamparser/json,
 * hyparquet, hyparquet-writer) are loaded when a file of their format is
 * read or written: every engine worker and file command imports this module
 * to read JSON Lines, and loading them all was ~0.1 s of each one's start.
 * Checked in a process of its own: this one's module registry has them.
 */
const index = JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)));
const LIBRARIES = ['csv-parse', 'papaparse', '@streamparser/json', 'hyparquet', 'hyparquet-writer'];

describe('the file formats', () => {
  it("load a format's library at its first file of that format, not with the module", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lazy-formats-'));
    writeFileSync(join(dir, 'a.jsonl'), '{"text":"one"}\n');
    writeFileSync(join(dir, 'b.csv'), 'text\ntwo\n');
    const script = `
const files = await import(${index});
const libraries = ${JSON.stringify(LIBRARIES)};
const seen = () =>
  libraries.filter((name) => [...globalThis.loaded].some((url) => url.includes(\`/node_modules/\${name}/\`)));
const rows = async (path) => { const out = []; for await (const row of files.readRows(path)) out.push(row); return out; };
const jsonl = await rows(${JSON.stringify(join(dir, 'a.jsonl'))});
const afterJsonl = seen();
const csv = await rows(${JSON.stringify(join(dir, 'b.csv'))});
console.log(JSON.stringify({ afterJsonl, afterCsv: seen(), jsonl: jsonl.length, csv: csv.length }));
`;
    const seen = runWithLoadedModules(script);
    expect(seen).toEqual({ afterJsonl: [], afterCsv: ['csv-parse'], jsonl: 1, csv: 1 });
  });
});
