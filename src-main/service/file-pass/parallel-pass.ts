import { randomBytes } from 'node:crypto';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Operation } from '../../../src-shared/schemas/config.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { unpackVerifyWords } from '../../engine/dataset/duplicates.ts';
import { DatasetScan, withStatistics, type ScanResult } from '../../engine/dataset/scan.ts';
import { startLanguageIdentification } from '../../engine/dataset/languages.ts';
import type { LanguageTextFetch } from '../../engine/dataset/language-reservoir.ts';
import type { RowMappingSpec } from '../../engine/rows/index.ts';
import type { DatasetChecked } from '../dataset-checks/core.ts';
import { decodeError, encodeError } from '../threads/wire-error.ts';
import { SampleError } from '../../engine/sample-error.ts';
import { oneCore } from '../threads/one-core.ts';
import { PoolUnavailable, sharesTables, SliceFailed, type EnginePool } from '../runs/pool/pool.ts';
import { cutLines } from './line-cutter.ts';
import type { LineSlice } from './line-slices.ts';
import { bandPushesOn } from './band-pushes-on.ts';
import { orderedMap } from './ordered.ts';
import { OutputBuffers } from './output-buffers.ts';
import { addPreparedSlice } from './prepared-slice.ts';
import { runFileTask } from './tasks.ts';
import type {
  FileTask,
  LanguageSliceResult,
  MatcherSpec,
  RunSliceResult,
  ScanSliceResult,
  ScanSliceTask,
  SliceIssues,
  SliceSource,
  WordsSliceResult,
  WordsSliceTask,
} from './task-types.ts';
import type { BenchmarkChoice } from '../../../src-shared/benchmarks.ts';
import type { FingerprintSet } from '../../engine/contamination/fingerprints.ts';

/**
 * A JSON Lines file's whole pass on every core: the dataset checks' scan,
 * then the operation, each a slice of whole lines at a time on the engine's
 * workers (tasks.ts). This thread cuts the file at line ends, adds each
 * slice's signatures to the duplicate index in order, and takes each slice's
 * output text in order; it never parses, maps, hashes, judges or serializes
 * a row. Results are those of the row-at-a-time pass (file.ts and the CLI's
 * batches): the same rows in the same order through the same functions.
 */

/** A slice as the first pass found it: where it is, and which samples it holds. */
export interface ScannedSlice extends LineSlice {
  /** The position (in the run's samples) of its first sample, and how many it holds. */
  firstPosition: number;
  samples: number;
  /** Each sample's line (see ScanSliceResult.rows). */
  rows: Uint32Array | null;
}

export interface ParallelFile {
  path: string;
  mapping: RowMappingSpec;
  slices: ScannedSlice[];
  samples: number;
}

/**
 * Where tasks run: the engine's pool, or this thread when no worker can
 * start or the process has one core (threads/one-core.ts).
 */
export class TaskRunner {
  readonly #pool: EnginePool | undefined;
  readonly #signal: AbortSignal;
  #inThread: boolean;

  constructor(pool: EnginePool | undefined, signal: AbortSignal) {
    this.#pool = pool;
    this.#signal = signal;
    this.#inThread = pool === undefined || pool.unavailable !== undefined || oneCore();
  }

  /** The workers the tasks run on (0: this thread). */
  get workers(): number {
    return this.#inThread ? 0 : (this.#pool?.size ?? 0);
  }

  /** Slices in flight at once: two per worker keeps each busy while this thread takes results. */
  get window(): number {
    return this.#inThread ? 1 : 2 * (this.#pool?.size ?? 1) + 2;
  }

  /** `firstPosition` and `samples` name a failing sample by its place in the whole run. */
  async run<R>(task: FileTask, firstPosition = 0, samples = 0): Promise<R> {
    if (this.#inThread || !this.#pool) return this.#runHere<R>(task, firstPosition, samples);
    try {
      const [result] = await this.#pool.runTasks<R>([task], this.#signal);
      return result as R;
    } catch (error) {
      if (error instanceof PoolUnavailable) {
        this.#inThread = true;
        return this.#runHere<R>(task, firstPosition, samples);
      }
      if (error instanceof SliceFailed) throw decodeError(error.error, firstPosition, samples);
      throw error;
    }
  }

  /** A task in this thread; a failing sample named as a worker's failure names it (above). */
  async #runHere<R>(task: FileTask, firstPosition: number, samples: number): Promise<R> {
    try {
      return (await runFileTask(task, this.#signal)) as R;
    } catch (error) {
      if (error instanceof SampleError) {
        throw decodeError(encodeError(error), firstPosition, samples);
      }
      throw error;
    }
  }
}

/** The contamination check of a file pass: the matcher here, and what workers make theirs from. */
export interface PassContamination {
  matcher: ContaminationMatcher | null;
  benchmarks: BenchmarkChoice;
  against: FingerprintSet[];
}

/**
 * The scan tasks of a file's slices: one matcher spec per run, so each
 * worker makes its matcher once (see `matcherOf`).
 */
export function scanTasks(
  path: string,
  mapping: RowMappingSpec,
  threshold: number,
  contamination: PassContamination,
  workers: number,
): (slice: LineSlice) => ScanSliceTask {
  const { matcher } = contamination;
  const spec: MatcherSpec | null = matcher
    ? {
        key: randomBytes(8).toString('hex'),
        benchmarks: contamination.benchmarks,
        against: contamination.against,
        // Merged here only for many workers (pool.ts sharesTables): this thread never matches.
        index: sharesTables(workers) ? matcher.sharedIndex() : undefined,
      }
    : null;
  return (slice) => ({
    kind: 'file-scan',
    source: sourceOf(path, slice, mapping),
    threshold,
    contamination: spec,
  });
}

/**
 * A slice's scan made before, elsewhere (a shard's, for `svc merge`): the
 * slice's result when it is at hand for this slice (its index in the file's
 * slices, and where it is), else undefined and the slice is scanned here.
 */
export type PreparedScan = (index: number, slice: LineSlice) => ScanSliceResult | undefined;

/** What a scan may be given besides its file (see `scanInParallel`). */
export interface ScanOptions {
  signal?: AbortSignal | undefined;
  prepared?: PreparedScan | undefined;
  /**
   * The languages of the rows of the language sample, identified elsewhere
   * (a sharded run's shards), by output position: identified here only if it
   * lacks some.
   */
  languages?: Promise<ReadonlyMap<number, string> | undefined> | undefined;
  /** Told each slice once it is scanned, in the file's order, with the samples scanned so far. */
  onSlice?: ((slice: LineSlice, samples: number) => void) | undefined;
}

/**
 * The dataset checks' scan of the file (FileChecks' first pass and its
 * fetch of words), its slices kept for the run.
 */
export async function scanInParallel(
  runner: TaskRunner,
  path: string,
  mapping: RowMappingSpec,
  threshold: number,
  contamination: PassContamination,
  { signal, prepared, languages, onSlice }: ScanOptions = {},
): Promise<{ scan: Promise<ScanResult>; checked: DatasetChecked; file: ParallelFile }> {
  // The languages are identified once the scan ends; their identifier loads meanwhile.
  if (!languages) startLanguageIdentification();
  const scan = new DatasetScan(threshold);
  const found = new ContaminationScan(contamination.matcher);
  const taskOf = scanTasks(path, mapping, threshold, contamination, runner.workers);
  const file: ParallelFile = { path, mapping, slices: [], samples: 0 };
  await orderedMap(
    indexed(cutLines(path, signal)),
    runner.window,
    ([slice, index]) => {
      const made = prepared?.(index, slice);
      return made ? Promise.resolve(made) : runner.run<ScanSliceResult>(taskOf(slice));
    },
    (result, [slice]) => {
      addPreparedSlice(scan, found, result);
      file.slices.push({
        ...slice,
        firstPosition: file.samples,
        samples: result.samples,
        rows: result.rows,
      });
      file.samples += result.samples;
      onSlice?.(slice, file.samples);
    },
  );
  // The statistics (languages: a worker of their own) finish while the run goes on.
  const name = (row: number): string => `output line ${row + 1}`;
  const statistics = scan.finishStatistics(languageTextsOn(runner, file), languages);
  statistics.catch(() => undefined); // awaited with the report; meanwhile never unhandled
  const duplicates = await scan.finishDuplicates(
    async (rows, deliver) => {
      await orderedMap(
        wantedBySlice(file.slices, rows),
        runner.window,
        ([slice, indexes]) =>
          runner.run<WordsSliceResult>({
            kind: 'file-words',
            ...wantedIn(path, mapping, slice, indexes),
          }),
        (words, [slice]) => {
          words.at.forEach((at, k) => {
            deliver(slice.firstPosition + at, unpackVerifyWords(words, k));
          });
        },
      );
    },
    name,
    undefined,
    bandPushesOn(runner),
  );
  return {
    scan: statistics.then((done) => withStatistics(duplicates, done, name)),
    checked: { duplicates, contamination: found.finish() },
    file,
  };
}

/**
 * The language texts of rows a shard's scan brought without them (see
 * `withoutLanguageTexts`), read again from the file on the runner: the few
 * thousand rows the language sample kept, spread over every slice, in a
 * few tasks rather than one per slice.
 */
function languageTextsOn(runner: TaskRunner, file: ParallelFile): LanguageTextFetch {
  return async (positions) => {
    const bySlice = wantedBySlice(file.slices, positions);
    const texts: string[] = [];
    await orderedMap(
      chunks(bySlice, Math.ceil(bySlice.length / runner.window)),
      runner.window,
      (group) =>
        runner.run<LanguageSliceResult>({
          kind: 'file-language',
          slices: group.map(([slice, indexes]) =>
            wantedIn(file.path, file.mapping, slice, indexes),
          ),
        }),
      (result) => {
        for (const text of result.texts) {
          if (text === null) {
            throw new Error('a row scanned with a text for its language has none now');
          }
          texts.push(text);
        }
      },
    );
    return texts;
  };
}

/** The lines of a slice's samples at `indexes`, and each line's first sample. */
function linesOf(
  rows: Uint32Array,
  indexes: readonly number[],
): NonNullable<WordsSliceTask['lines']> {
  const line: number[] = [];
  const firstOfLine: number[] = [];
  for (const index of indexes) {
    const row = rows[index] as number;
    let first = index;
    while (first > 0 && rows[first - 1] === row) first--;
    line.push(row);
    firstOfLine.push(first);
  }
  return { line, firstOfLine };
}

/** `items` in runs of `size` (at least 1; the last run may be shorter). */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, size);
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += step) out.push(items.slice(at, at + step));
  return out;
}

/** Some samples of a slice, as a task reads them: only their lines, where they are known. */
function wantedIn(
  path: string,
  mapping: RowMappingSpec,
  slice: ScannedSlice,
  indexes: number[],
): Pick<WordsSliceTask, 'source' | 'wanted' | 'lines'> {
  return {
    source: sourceOf(path, slice, mapping),
    wanted: indexes,
    ...(slice.rows && { lines: linesOf(slice.rows, indexes) }),
  };
}

/** Each item with its index. */
export async function* indexed<T>(items: AsyncIterable<T>): AsyncGenerator<[T, number]> {
  let index = 0;
  for await (const item of items) yield [item, index++];
}

/** Where a worker reads a slice's rows. */
export const sourceOf = (path: string, slice: LineSlice, mapping: RowMappingSpec): SliceSource => ({
  path,
  start: slice.start,
  length: slice.length,
  firstLine: slice.firstLine,
  mapping,
});

/** The positions wanted (ascending), grouped by the slice that holds them, as indexes in it. */
function wantedBySlice(
  slices: readonly ScannedSlice[],
  rows: readonly number[],
): [ScannedSlice, number[]][] {
  const out: [ScannedSlice, number[]][] = [];
  let s = 0;
  for (const row of rows) {
    while (s < slices.length) {
      const slice = slices[s] as ScannedSlice;
      if (row < slice.firstPosition + slice.samples) break;
      s++;
    }
    const slice = slices[s];
    if (!slice) break;
    const last = out[out.length - 1];
    if (last?.[0] === slice) last[1].push(row - slice.firstPosition);
    else out.push([slice, [row - slice.firstPosition]]);
  }
  return out;
}

/** The issues of the samples at positions [first, first + count), by index from `first`. */
export function issuesOfRange(checked: DatasetChecked, first: number, count: number): SliceIssues {
  const duplicates: [number, Issue[]][] = [];
  const contamination: [number, Issue[]][] = [];
  const { issues } = checked.duplicates;
  const rows = issues.groupedIn?.(first, count) ?? range(first, count);
  for (const row of rows) {
    const dup = issues.get(row);
    if (dup && dup.length > 0) duplicates.push([row - first, dup]);
  }
  const held = checked.contamination.issues;
  if (held.size > 0) {
    for (let i = 0; i < count; i++) {
      const found = held.get(first + i);
      if (found && found.length > 0) contamination.push([i, found]);
    }
  }
  return { active: checked.contamination.active, duplicates, contamination };
}

function* range(first: number, count: number): Generator<number> {
  for (let row = first; row < first + count; row++) yield row;
}

export interface ParallelRun {
  operation: Operation;
  config: unknown;
  conventions: string | undefined;
  checked: DatasetChecked;
  /** Give each slice's input and output as JSON (fix and refine keep history). */
  history: boolean;
}

/** A slice's result as the run takes it: its output where it is, until `release`. */
export interface TakenRunSlice extends Omit<RunSliceResult, 'output' | 'written'> {
  output: Uint8Array;
  /** Called once `output` is written out: its buffer serves another slice. */
  release: () => void;
}

/**
 * The operation over the scanned file, slice by slice on the workers; each
 * slice's result (its output text, counts, usage, tally) goes to `take` in
 * the file's order.
 */
export async function runInParallel(
  runner: TaskRunner,
  file: ParallelFile,
  run: ParallelRun,
  take: (result: TakenRunSlice, slice: ScannedSlice) => void | Promise<void>,
): Promise<void> {
  const buffers = new OutputBuffers();
  await orderedMap(
    file.slices,
    runner.window,
    async (slice) => {
      const into = buffers.take();
      const result = await runner.run<RunSliceResult>(
        {
          kind: 'file-run',
          source: sourceOf(file.path, slice, file.mapping),
          operation: run.operation,
          config: run.config,
          conventions: run.conventions,
          issues: issuesOfRange(run.checked, slice.firstPosition, slice.samples),
          history: run.history,
          into,
        },
        slice.firstPosition,
        file.samples,
      );
      return { result, into };
    },
    ({ result, into }, slice) => {
      const { output, written, ...rest } = result;
      if (output) buffers.give(into);
      return take(
        {
          ...rest,
          output: output ?? new Uint8Array(into, 0, written),
          release: output ? () => undefined : () => buffers.give(into),
        },
        slice,
      );
    },
  );
}
