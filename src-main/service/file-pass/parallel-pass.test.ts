import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { duplicateWords } from '../../engine/dataset/duplicates.ts';
import { DatasetScan, type ScanResult } from '../../engine/dataset/scan.ts';
import { mappingSpecOf, type RowMapping, type SampleRow } from '../../engine/rows/index.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { readSamples, type ReadSamplesOptions } from '../samples/read-samples.ts';
import { contaminationMatcher } from '../contamination/matcher.ts';
import { SHARE_TABLES_FROM } from '../runs/pool/pool.ts';
import { oneCore } from '../threads/one-core.ts';
import { scanInParallel, scanTasks, TaskRunner } from './parallel-pass.ts';
import type { MatcherSpec } from './task-types.ts';
import { tempLinesFiles } from './testing/line-files.ts';

/**
 * The dataset checks' scan of a JSON Lines file in slices (`scanInParallel`,
 * its tasks run in this thread) against the row-at-a-time scan of the same
 * file (as dataset-checks/file.ts scans it): the same duplicates, issues,
 * statistics and findings, whatever the slice size.
 */

const temp = tempLinesFiles('svc-parallel-pass-test-');
const DATASETS = join(import.meta.dirname, '..', '..', '..', 'resources', 'datasets');
const THRESHOLD = 0.8;

afterEach(() => {
  vi.unstubAllEnvs();
});

const asData = ({ duplicates, ...rest }: ScanResult): unknown => ({
  ...rest,
  duplicates: { ...duplicates, issues: [...duplicates.issues] },
});

/** The row-at-a-time scan, and the mapping it read the file with. */
async function scanRowByRow(
  path: string,
  options: ReadSamplesOptions,
): Promise<{ result: ScanResult; mapping: RowMapping }> {
  let mapping: RowMapping | undefined;
  const items: SampleRow[] = [];
  for await (const item of readSamples(path, { ...options, onMapping: (m) => (mapping = m) })) {
    items.push(item);
  }
  if (!mapping) throw new Error('no mapping');
  const samples: Sample[] = [];
  const scan = new DatasetScan(THRESHOLD);
  for (const item of items) {
    if (!('sample' in item)) continue;
    samples.push(item.sample);
    scan.add(item.sample, undefined, item.path ? item.row : 0);
  }
  const name = (row: number): string => `output line ${row + 1}`;
  const result = await scan.finish((rows, deliver) => {
    for (const row of rows) deliver(row, duplicateWords(samples[row] as Sample));
  }, name);
  return { result, mapping };
}

async function scanSliced(
  path: string,
  mapping: RowMapping,
  sliceBytes: number,
): Promise<ScanResult> {
  vi.stubEnv('SVC_FILE_PASS_SLICE_BYTES', String(sliceBytes));
  const signal = new AbortController().signal;
  const { scan, checked, file } = await scanInParallel(
    new TaskRunner(undefined, signal),
    path,
    mappingSpecOf(mapping),
    THRESHOLD,
    { matcher: null, benchmarks: 'none', against: [] },
    { signal },
  );
  const result = await scan;
  expect(checked.duplicates).toBe(result.duplicates);
  expect(file.slices.length).toBeGreaterThan(1);
  expect(file.samples).toBe(result.statistics.samples);
  return result;
}

const shipped = (name: string): string => readFileSync(join(DATASETS, name), 'utf8');

describe('scanInParallel', () => {
  it('scans a file in slices as the row-at-a-time scan does: copies, broken lines, CRLF, BOM', async () => {
    const lines = shipped('gsm8k_test_first300.jsonl').split('\n').filter(Boolean);
    const copy = (i: number): string => lines[i] as string;
    const near = JSON.stringify({
      ...(JSON.parse(copy(7)) as Record<string, unknown>),
      question: (JSON.parse(copy(7)) as { question: string }).question.replace(
        / (\w+)\./,
        ' lantern.',
      ),
    });
    const text =
      '\ufeff' +
      [...lines, copy(3), '', 'not json', '[1, 2]', near, copy(120), '   ', '{"question": 3}'].join(
        '\r\n',
      ) +
      '\n';
    const path = temp(text);
    const { result, mapping } = await scanRowByRow(path, {});
    expect(result.duplicates.groups.length).toBeGreaterThan(0);
    for (const bytes of [300, 4096, 65_536]) {
      expect(asData(await scanSliced(path, mapping, bytes))).toEqual(asData(result));
    }
  }, 60_000);

  it('scans OpenAssistant trees read along every path alike (their paths share an origin)', async () => {
    const path = temp(shipped('oasst_en_100_trees.jsonl'));
    const { result, mapping } = await scanRowByRow(path, { paths: 'all' });
    expect(mapping.tree).toBeDefined();
    expect(asData(await scanSliced(path, mapping, 20_000))).toEqual(asData(result));
  }, 60_000);

  it('scans multiple choice with labels alike', async () => {
    const lines = shipped('commonsenseqa_validation_first200.jsonl').split('\n').filter(Boolean);
    // A repeated question with another answer: a label conflict.
    const conflict = JSON.stringify({
      ...(JSON.parse(lines[4] as string) as object),
      answerKey: 'E',
    });
    const path = temp([...lines, lines[2], conflict].join('\n'));
    const { result, mapping } = await scanRowByRow(path, {});
    expect(result.findings.map((f) => f.code)).toContain('duplicates');
    expect(asData(await scanSliced(path, mapping, 1000))).toEqual(asData(result));
  }, 60_000);
});

// On one core a TaskRunner runs them in this thread, not on the workers compared here.
describe.skipIf(oneCore())('the bands on the workers', () => {
  it('yield each band its own pairs, in band order, with columns in flight and their memory reused', async () => {
    const { EnginePool } = await import('../runs/pool/pool.ts');
    const { bandPushes } = await import('../../engine/dataset/duplicates.ts');
    const { bandPushesOn } = await import('./band-pushes-on.ts');
    const pool = new EnginePool(new URL('../runs/pool/worker.ts', import.meta.url), 2);
    try {
      const n = 3000;
      const reps = Uint32Array.from({ length: 2000 }, (_, i) => i + Math.floor(i / 2));
      // 30 bands (more than the 6 in flight at once), each with its own few hash values: buckets.
      const bands = Array.from({ length: 30 }, (_, b) =>
        Uint32Array.from(reps, (row) => (row * (b + 7)) % (40 + b)),
      );
      const columnOf = (band: number, into?: Uint32Array): Uint32Array => {
        const column = into ?? new Uint32Array(reps.length);
        column.set(bands[band] as Uint32Array);
        return column;
      };
      const runner = new TaskRunner(pool, new AbortController().signal);
      const made: Float64Array[] = [];
      for await (const pushes of bandPushesOn(runner)(bands.length, columnOf, reps, n)) {
        made.push(pushes);
      }
      expect(made).toHaveLength(bands.length);
      made.forEach((pushes, b) => {
        expect(pushes.length).toBeGreaterThan(0);
        expect([...pushes]).toEqual([...bandPushes(reps, bands[b] as Uint32Array, n)]);
      });
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe("a scan's contamination index for its workers", () => {
  const matcher = contaminationMatcher({ benchmarks: ['gsm8k'] });
  const contamination = { matcher, benchmarks: ['gsm8k'], against: [] };
  const slice = { start: 0, length: 1, firstLine: 1 };
  const specFor = (workers: number): MatcherSpec | null =>
    scanTasks(
      'rows.jsonl',
      { shape: 'gsm8k', mapping: null, tree: false },
      0.8,
      contamination,
      workers,
    )(slice).contamination;

  it('is merged here, in shared memory, for three workers or more, and left to them for fewer', () => {
    expect(matcher).not.toBeNull();
    expect(specFor(SHARE_TABLES_FROM - 1)?.index).toBeUndefined();
    const index = specFor(SHARE_TABLES_FROM)?.index;
    expect(index?.keys.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(index?.refs.length).toBe(matcher?.sets.reduce((n, set) => n + set.refs.length, 0));
  });
});
