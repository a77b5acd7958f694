import { DUPLICATES_CHECK } from '../../../src-shared/checks.ts';
import type { AuditBlock, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { DatasetReport } from '../../../src-shared/schemas/report.ts';
import { duplicateWords } from '../../engine/dataset/duplicates.ts';
import {
  assembleReport,
  DatasetScan,
  VerdictTally,
  type ScanResult,
} from '../../engine/dataset/scan.ts';
import type { OperationResult, ResultSample } from '../runs/contract.ts';
import { readSamples, type ReadSamplesOptions } from '../samples/read-samples.ts';
import { applyDuplicates, verdictAt, withDuplicatesVerdict } from './core.ts';

/**
 * The dataset checks of a file (the CLI's runs and `svc merge`): before the
 * engine runs, one pass over the file's samples feeds the duplicate index
 * and the statistics (a sample's position is its place in the output), and a
 * second reads back the words of just the rows that near-duplicate
 * verification needs. Memory stays bounded by the index's typed arrays and
 * those rows, whatever the file's size. Then each output sample gets its
 * verdict, counted for the run's report.
 */
export class FileChecks {
  readonly #scan: ScanResult;
  readonly #tally = new VerdictTally();

  private constructor(scan: ScanResult) {
    this.#scan = scan;
  }

  /** Scans the file, read with `options` exactly as the run reads it. */
  static async scan(
    input: string,
    options: ReadSamplesOptions,
    threshold: number,
  ): Promise<FileChecks> {
    return new FileChecks(await scanFile(input, options, threshold));
  }

  /** How many samples the file holds. */
  get samples(): number {
    return this.#scan.statistics.samples;
  }

  /**
   * A batch's result, whose data are the output from position `offset` on,
   * with their verdicts (the counts follow), counted for the report.
   */
  apply(result: OperationResult, offset: number): void {
    applyDuplicates(result, this.#scan.duplicates, offset);
    result.data.forEach((sample, i) => {
      this.#count(sample, verdictAt(this.#scan.duplicates, offset + i));
    });
  }

  /** The output sample at `position` with its verdict, counted for the report. */
  checked(
    operation: OperationResult['operation'],
    sample: ResultSample,
    position: number,
  ): ResultSample {
    const verdict = verdictAt(this.#scan.duplicates, position);
    const checked = withDuplicatesVerdict(operation, sample, verdict);
    this.#count(checked, verdict);
    return checked;
  }

  /** The run's report: the scan and the tally of the verdicts counted. */
  report(): DatasetReport {
    return assembleReport(this.#scan, this.#tally);
  }

  /** A fix result has no audit: its tally counts the dataset checks alone. */
  #count(sample: ResultSample, verdict: Verdict): void {
    this.#tally.add(sample.audit ?? dedupOnly(verdict));
  }
}

const dedupOnly = (verdict: Verdict): AuditBlock => ({
  passed: verdict.passed !== false,
  checks: { [DUPLICATES_CHECK]: verdict },
  model: 'dataset-checks',
  votes: 1,
});

async function scanFile(
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
