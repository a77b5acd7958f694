import { writeFile } from 'node:fs/promises';
import { DUPLICATES_CHECK } from '../../src-shared/checks.ts';
import type { AuditBlock, Verdict } from '../../src-shared/schemas/blocks.ts';
import type { DatasetReport } from '../../src-shared/schemas/report.ts';
import { duplicateWords } from '../engine/dataset/duplicates.ts';
import { DatasetScan, type ScanResult } from '../engine/dataset/scan.ts';
import { readSamples, type ReadSamplesOptions } from '../service/samples/read-samples.ts';

/**
 * The CLI's dataset checks: before the engine runs, one pass over the file's
 * samples feeds the duplicate index and the statistics (a sample's position
 * is its place in the output), and a second reads back the words of just the
 * rows that near-duplicate verification needs. Memory stays bounded by the
 * index's typed arrays and those rows, whatever the file's size.
 */
export async function scanFile(
  input: string,
  options: ReadSamplesOptions,
  threshold: number,
): Promise<ScanResult> {
  const scan = new DatasetScan(threshold);
  for await (const item of readSamples(input, options)) {
    // The paths of one tree come from one row: never near duplicates of each other.
    if ('sample' in item) scan.add(item.sample, undefined, item.path ? item.row : 0);
  }
  return scan.finish(
    async (rows, deliver) => {
      const wanted = new Set(rows);
      if (wanted.size === 0) return;
      let position = 0;
      let delivered = 0;
      for await (const item of readSamples(input, options)) {
        if (!('sample' in item)) continue;
        if (wanted.has(position)) {
          deliver(position, duplicateWords(item.sample));
          if (++delivered === wanted.size) break;
        }
        position++;
      }
    },
    (row) => `output line ${row + 1}`,
  );
}

/** Writes the report as JSON (pretty, it is for people and scripts alike). */
export async function writeReport(path: string, report: DatasetReport): Promise<void> {
  await writeFile(path, JSON.stringify(report, null, 2) + '\n');
}

/** The report's headline for the summary on stderr: its findings, one a line. */
export function reportHeadline(report: DatasetReport): string[] {
  return report.findings.map((finding) => `finding: ${finding.message}`);
}

/** A fix result has no audit: its tally counts the dataset checks alone. */
export const dedupOnly = (verdict: Verdict): AuditBlock => ({
  passed: verdict.passed !== false,
  checks: { [DUPLICATES_CHECK]: verdict },
  model: 'dataset-checks',
  votes: 1,
});
