import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BenchmarkChoice } from '../../../src-shared/benchmarks.ts';
import { benchmarkKey } from '../../engine/contamination/benchmarks.ts';
import { findShippedFile } from '../../engine/shipped-file.ts';
import {
  decodeFingerprints,
  type FingerprintSet,
} from '../../engine/contamination/fingerprints.ts';
import {
  FINGERPRINT_INDEX,
  type FingerprintIndexEntry,
} from '../../engine/contamination/index-file.ts';

/**
 * The shipped benchmark fingerprints (`src-shared/benchmark-fingerprints/`,
 * built by `scripts/build-benchmark-fingerprints.ts`), read once per
 * process: ~6 MB of typed arrays, viewed in place.
 *
 * They live beside the sources the CLI runs, not in `resources/`: an install
 * of the command line alone (the sources, `bin/`, `package.json` and the
 * packages, as a many-core machine is sent them) had no `resources/`, and
 * every audit failed there. The folder is found by walking up from this
 * module, so the same code finds it from the sources (the CLI, the tests) and
 * from the bundle (`out/main`); `SVC_BENCHMARKS_DIR` names another.
 */

const FOLDER = join('src-shared', 'benchmark-fingerprints');

function benchmarksDir(): string {
  const named = process.env.SVC_BENCHMARKS_DIR;
  if (named) return named;
  const index = findShippedFile(join(FOLDER, FINGERPRINT_INDEX), import.meta.url);
  if (!index) {
    throw new Error(
      `the benchmark fingerprints (${FOLDER}/${FINGERPRINT_INDEX}) are missing from this install`,
    );
  }
  return dirname(index);
}

let index: { dir: string; entries: FingerprintIndexEntry[] } | undefined;
const loaded = new Map<string, FingerprintSet>();

/** The index of the shipped sets: names, sizes, sources and licenses. */
export function benchmarkIndex(): FingerprintIndexEntry[] {
  if (!index) {
    const dir = benchmarksDir();
    const entries = JSON.parse(
      readFileSync(join(dir, FINGERPRINT_INDEX), 'utf8'),
    ) as FingerprintIndexEntry[];
    index = { dir, entries };
  }
  return index.entries;
}

/** The fingerprint sets of the chosen benchmarks (read from disk the first time each is asked). */
export function benchmarkSets(choice: BenchmarkChoice): FingerprintSet[] {
  if (choice === 'none') return [];
  const entries = benchmarkIndex().filter(
    (entry) => choice === 'all' || choice.includes(benchmarkKey(entry.name)),
  );
  return entries.map((entry) => {
    let set = loaded.get(entry.name);
    if (!set) {
      const bytes = readFileSync(join(index?.dir ?? benchmarksDir(), entry.file));
      set = decodeFingerprints(
        entry.name,
        new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
      );
      if (set.items !== entry.items) {
        throw new Error(`${entry.file}: ${set.items} items, the index says ${entry.items}`);
      }
      loaded.set(entry.name, set);
    }
    return set;
  });
}
