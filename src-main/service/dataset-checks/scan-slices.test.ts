import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataset, type Harness } from '../datasets/testing/harness.ts';
import type { ScanTask } from './scan-rows.ts';
import { SliceWorkers } from './scan-slices.ts';
import { scanDataset, type ScanSplit } from './sqlite.ts';
import { CHECKS_JSON } from '../../store/datasets-rows.ts';
import {
  closeSignatureCache,
  openSignatureCache,
  storedSignatures,
} from '../../store/signature-cache.ts';

/**
 * A scan's reading and hashing split across slice workers (scan-slices.ts)
 * finds what one thread finds: the same verdicts and verdict columns, groups,
 * statistics, findings and stored signatures, whatever the number of workers
 * and the size of the slices, on a dataset with exact and near copies,
 * dropped rows, an accepted fix, signatures missing and stale.
 */

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

interface Row {
  question: string;
  answer: string;
}

/** GSM8K's first 300 rows (contamination) with exact copies, shouted copies and near copies. */
function gsmWithCopies(h: Harness): string {
  const rows = lines(dataset('gsm8k_test_first300.jsonl')).map((line) => JSON.parse(line) as Row);
  for (let i = 0; i < 60; i++) {
    const row = rows[i * 5] as Row;
    const kind = i % 3;
    rows.push(
      kind === 0
        ? row
        : kind === 1
          ? { ...row, question: row.question.toUpperCase() }
          : { ...row, question: `${row.question} Explain briefly.` },
    );
  }
  const path = join(h.dir, 'gsm-copies.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

const ALL_ROWS = [-1, Number.MAX_SAFE_INTEGER] as const;

/** Everything a scan writes: each row's verdict columns and signature, the groups, the scan. */
function stored(h: Harness, id: string): unknown {
  const signatures = storedSignatures(h.db, id, ...ALL_ROWS);
  const rows = (
    h.db
      .prepare(
        `SELECT row_index, ${CHECKS_JSON}, passed, score, failed_checks, unverified, error_codes,
         warning_codes, warning_checks
       FROM dataset_rows WHERE dataset_id = ? ORDER BY row_index`,
      )
      .all(id) as { row_index: number }[]
  ).map((row) => {
    const kept = signatures.get(row.row_index);
    return { ...row, sig: kept?.sig.toString('hex') ?? '', key: kept?.key };
  });
  const groups = h.db
    .prepare(
      `SELECT first_row, kind, similarity, label_conflict, size, rows_json
       FROM dataset_duplicate_groups WHERE dataset_id = ? ORDER BY first_row`,
    )
    .all(id);
  const scan = JSON.parse(
    h.db.prepare('SELECT scan_json FROM datasets WHERE id = ?').pluck().get(id) as string,
  ) as Record<string, unknown>;
  return { rows, groups, scan: { ...scan, scanned_at: undefined } };
}

/**
 * A dataset left as a user leaves one, then scanned with `split`: copies
 * dropped, a fix accepted, some signatures gone and some of another version.
 */
async function scannedWith(h: Harness, split: ScanSplit): Promise<unknown> {
  const ds = await h.importFile(gsmWithCopies(h), 'gsm8k');
  await h.scanned(ds.id);
  await h.call('decide', { dataset_id: ds.id, indices: [300, 303, 306], decision: 'dropped' });
  const row7 = await h.call('datasetRow', { dataset_id: ds.id, index: 7 });
  const question = String(row7.sample.question);
  const fixed = { ...row7.sample, question: `${question} Answer in words.` };
  h.db
    .prepare(
      'UPDATE dataset_rows SET fixed_json = ?, changed = 1 WHERE dataset_id = ? AND row_index = 7',
    )
    .run(JSON.stringify(fixed), ds.id);
  await h.call('decide', { dataset_id: ds.id, indices: [7], decision: 'accepted' });
  await h.scanned(ds.id);
  alterSignatures(h, ds.id, (row) =>
    // Some lost; some of another key version: stale, so hashed again.
    row % 11 === 3 ? null : row % 11 === 5 ? Buffer.alloc(4 * 22, 7) : undefined,
  );
  await scanDataset(h.ctx, ds.id, split);
  return stored(h, ds.id);
}

/** Changes the signatures kept of a dataset's rows: `null` drops one, a buffer replaces it. */
function alterSignatures(
  h: Harness,
  id: string,
  change: (row: number) => Buffer | null | undefined,
): void {
  const cache = openSignatureCache(h.db);
  const kept = storedSignatures(h.db, id, ...ALL_ROWS);
  for (const [row, { key }] of kept) {
    const to = change(row);
    if (to === undefined) continue;
    if ('memory' in cache) {
      const rows = cache.memory.get(id);
      if (to === null) rows?.delete(row);
      else rows?.set(row, { key, sig: to });
    } else if (to === null) {
      cache.file
        .prepare('DELETE FROM signatures WHERE dataset_id = ? AND row_index = ?')
        .run(id, row);
    } else {
      cache.file
        .prepare('UPDATE signatures SET sig = ? WHERE dataset_id = ? AND row_index = ?')
        .run(to, id, row);
    }
  }
  closeSignatureCache(cache);
}

/** Each case imports and scans its dataset three times (a loaded machine takes ~10 s). */
const TIMEOUT_MS = 120_000;

describe("a scan's slices on several workers", () => {
  let one: unknown;
  beforeAll(async () => {
    one = await scannedWith(createHarness({ onDisk: true }), { workers: 1 });
  }, TIMEOUT_MS);

  it('finds copies, near copies and benchmark items, and stores every signature', () => {
    const text = JSON.stringify(one);
    for (const code of ['exact_duplicate', 'near_duplicate', 'benchmark_overlap']) {
      expect(text.includes(code), code).toBe(true);
    }
    // The signatures missing and stale were computed again and stored (dropped rows are not read).
    const rows = (one as { rows: { row_index: number; sig: string; key?: number }[] }).rows;
    const kept = rows.filter((row) => ![300, 303, 306].includes(row.row_index));
    expect(kept.filter((row) => row.sig === '' || row.sig.startsWith('07070707'))).toEqual([]);
    // Each kept with the key of its sample in force: the accepted fix's for row 7.
    expect(kept.filter((row) => row.key !== 0).map((row) => row.row_index)).toEqual([7]);
  });

  it.each([
    { workers: 3, sliceRows: 37 },
    { workers: 2, sliceRows: 1 },
    { workers: 2, sliceRows: 5000 },
  ])(
    'stores what one thread stores with $workers workers, $sliceRows rows a slice',
    async (split) => {
      expect(await scannedWith(createHarness({ onDisk: true }), split)).toEqual(one);
    },
    TIMEOUT_MS,
  );

  it(
    'stores what one thread stores on the main thread (a database in memory)',
    async () => {
      expect(await scannedWith(createHarness(), { workers: 4 })).toEqual(one);
    },
    TIMEOUT_MS,
  );
});

describe("a scan's slice workers", () => {
  it('end as asked when closed, even while they start: never terminated mid-load', async () => {
    const h = createHarness({ onDisk: true });
    // A small dataset's scan closes its workers before they have loaded SQLite: stopping a thread
    // then aborted the whole process. Asked to end, each exits on its own (code 0, not 1).
    for (let i = 0; i < 12; i++) {
      const workers = new SliceWorkers(h.db.name, 2);
      await new Promise((resolve) => setTimeout(resolve, (i % 4) * 15));
      workers.close();
      expect(await workers.exited()).toEqual([0, 0]);
      await expect(workers.run({} as ScanTask)).rejects.toThrow(/were closed/);
    }
  }, 60_000);
});
