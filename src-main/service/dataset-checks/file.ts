import type { DatasetReport } from '../../../src-shared/schemas/report.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { duplicateWords } from '../../engine/dataset/duplicates.ts';
import {
  assembleReport,
  DatasetScan,
  VerdictTally,
  type ScanResult,
  type TallyParts,
} from '../../engine/dataset/scan.ts';
import type { OperationResult, ResultSample } from '../runs/contract.ts';
import { readSamples, type ReadSamplesOptions } from '../samples/read-samples.ts';
import {
  applyDatasetVerdicts,
  datasetChecksOnly,
  verdictsAt,
  withDatasetVerdicts,
  type DatasetChecked,
  type DatasetVerdicts,
} from './core.ts';

/**
 * The dataset checks of a file (the CLI's runs and `svc merge`): before the
 * engine runs, one pass over the file's samples feeds the duplicate index
 * and the statistics (a sample's position is its place in the output), and a
 * second reads back the words of just the rows that near-duplicate
 * verification needs. Memory stays bounded by the index's typed arrays and
 * those rows, whatever the file's size. The first pass also looks for
 * evaluation items (`contamination`), keeping only the rows that hold any.
 * Then each output sample gets its verdicts, counted for the run's report.
 */
export class FileChecks {
  readonly #scan: Promise<ScanResult>;
  readonly #checked: DatasetChecked;
  readonly #tally = new VerdictTally();
  readonly #samples: number;

  private constructor(scan: Promise<ScanResult>, checked: DatasetChecked, samples: number) {
    this.#samples = samples;
    this.#scan = scan;
    this.#checked = checked;
  }

  /** Scans the file, read with `options` exactly as the run reads it. */
  static async scan(
    input: string,
    options: ReadSamplesOptions,
    threshold: number,
    contamination: ContaminationMatcher | null = null,
    onRow?: ScanRowProgress,
  ): Promise<FileChecks> {
    const { scan, checked } = await scanFile(input, options, threshold, contamination, onRow);
    return new FileChecks(Promise.resolve(scan), checked, scan.statistics.samples);
  }

  /**
   * The checks of a scan made elsewhere (service/file-pass: the file's slices
   * on the workers), whose statistics may still be in the making.
   */
  static fromScan(scan: Promise<ScanResult>, checked: DatasetChecked, samples: number): FileChecks {
    return new FileChecks(scan, checked, samples);
  }

  /** What the dataset checks found (for the workers that apply them to slices of the output). */
  get found(): DatasetChecked {
    return this.#checked;
  }

  /** Counts verdicts tallied elsewhere (a slice's, in the run's order) for the report. */
  absorb(tally: TallyParts): void {
    this.#tally.absorb(tally);
  }

  /** How many samples the file holds. */
  get samples(): number {
    return this.#samples;
  }

  /**
   * A batch's result, whose data are the output from position `offset` on,
   * with their verdicts (the counts follow), counted for the report.
   */
  apply(result: OperationResult, offset: number): void {
    applyDatasetVerdicts(result, this.#checked, offset);
    result.data.forEach((sample, i) => {
      this.#count(sample, verdictsAt(this.#checked, offset + i));
    });
  }

  /** The output sample at `position` with its verdict, counted for the report. */
  checked(
    operation: OperationResult['operation'],
    sample: ResultSample,
    position: number,
  ): ResultSample {
    const verdicts = verdictsAt(this.#checked, position);
    const checked = withDatasetVerdicts(operation, sample, verdicts);
    this.#count(checked, verdicts);
    return checked;
  }

  /** The run's report: the scan and the tally of the verdicts counted. */
  async report(): Promise<DatasetReport> {
    const scan = await this.#scan;
    const findings = [...scan.findings, ...this.#checked.contamination.findings];
    return assembleReport({ ...scan, findings }, this.#tally);
  }

  /** A fix result has no audit: its tally counts the dataset checks alone. */
  #count(sample: ResultSample, verdicts: DatasetVerdicts): void {
    this.#tally.add(sample.audit ?? datasetChecksOnly(verdicts));
  }
}

/** Told as a scan reads rows: the row it is at (as `readSamples` numbers them) and the samples so far. */
export type ScanRowProgress = (row: number, samples: number) => void;

/** Samples between two calls of a scan's `onRow`. */
const PROGRESS_SAMPLES = 1024;

async function scanFile(
  input: string,
  options: ReadSamplesOptions,
  threshold: number,
  matcher: ContaminationMatcher | null,
  onRow?: ScanRowProgress,
): Promise<{ scan: ScanResult; checked: DatasetChecked }> {
  const scan = new DatasetScan(threshold);
  const contamination = new ContaminationScan(matcher);
  let samples = 0;
  for await (const item of readSamples(input, options)) {
    // The paths of one tree come from one row: never near duplicates of each other.
    if (!('sample' in item)) continue;
    scan.add(item.sample, undefined, item.path ? item.row : 0);
    contamination.add(item.sample);
    if (onRow && ++samples % PROGRESS_SAMPLES === 0) onRow(item.row, samples);
  }
  const result = await scan.finish(
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
  return {
    scan: result,
    checked: { duplicates: result.duplicates, contamination: contamination.finish() },
  };
}
