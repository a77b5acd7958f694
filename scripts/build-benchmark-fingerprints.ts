/**
 * Builds the benchmark fingerprints the app and the CLI ship with
 * (`src-shared/benchmark-fingerprints/`) from the test splits under
 * `../shared/benchmarks/`: hashed word n-grams, never the texts. Each set's
 * license and source are copied beside them from that folder's
 * PROVENANCE.md. Run after the benchmarks or the method change:
 *
 *   node scripts/build-benchmark-fingerprints.ts [BENCHMARKS_DIR]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from '../src-main/engine/contamination/benchmarks.ts';
import { buildFingerprints } from '../src-main/engine/contamination/build.ts';
import { encodeFingerprints } from '../src-main/engine/contamination/fingerprints.ts';
import {
  FINGERPRINT_INDEX,
  fingerprintFile,
  type FingerprintIndexEntry,
} from '../src-main/engine/contamination/index-file.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = resolve(process.argv[2] ?? join(root, '..', 'shared', 'benchmarks'));
const to = join(root, 'src-shared', 'benchmark-fingerprints');

/** PROVENANCE.md's table, by file: its columns by header. */
function provenance(): Map<string, Record<string, string>> {
  const lines = readFileSync(join(from, 'PROVENANCE.md'), 'utf8').split('\n');
  const rows = lines.filter((line) => line.startsWith('|') && !line.startsWith('|---'));
  const cells = (line: string): string[] =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  const [header, ...body] = rows.map(cells);
  if (!header) throw new Error(`${from}/PROVENANCE.md has no table`);
  return new Map(
    body.map((row) => [row[0] ?? '', Object.fromEntries(header.map((h, i) => [h, row[i] ?? '']))]),
  );
}

const sources = provenance();
const read = BENCHMARKS.map((spec) => {
  const raw = readFileSync(join(from, spec.file));
  const lines = raw
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const items = lines.map((line) => spec.item(JSON.parse(line) as Record<string, unknown>));
  return { spec, raw, items };
});
const sets = buildFingerprints(read.map(({ spec, items }) => ({ name: spec.name, items })));

mkdirSync(to, { recursive: true });
const index: FingerprintIndexEntry[] = read.map(({ spec, raw, items }, i) => {
  const set = sets[i];
  if (!set) throw new Error(`no fingerprints built for ${spec.name}`);
  const row = sources.get(spec.file);
  if (!row) throw new Error(`${spec.file} is not in PROVENANCE.md`);
  const bytes = encodeFingerprints(set);
  writeFileSync(join(to, fingerprintFile(spec.name)), bytes);
  const unmatchable = Array.from({ length: items.length }, (_, item) => item).filter(
    (item) => set.totals[item * 2] === 0 && set.totals[item * 2 + 1] === 0,
  ).length;
  return {
    name: spec.name,
    title: spec.title,
    file: fingerprintFile(spec.name),
    items: items.length,
    entries: set.refs.length,
    unmatchable,
    source_file: spec.file,
    source_sha256: createHash('sha256').update(raw).digest('hex'),
    source: row['source (repo @ commit : path)'] ?? '',
    license: row['license (from source)'] ?? '',
    paper: row.paper ?? '',
  };
});
writeFileSync(join(to, FINGERPRINT_INDEX), `${JSON.stringify(index, null, 2)}\n`);
for (const entry of index) {
  console.log(
    `${entry.name.padEnd(22)} ${String(entry.items).padStart(5)} items ` +
      `${String(entry.entries).padStart(8)} n-grams  ${entry.unmatchable} too short or all boilerplate`,
  );
}
