import type { BenchmarkChoice } from '../../../src-shared/benchmarks.ts';
import type { EngineModel } from '../../../src-shared/models.ts';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Operation } from '../../../src-shared/schemas/config.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { FingerprintSet } from '../../engine/contamination/fingerprints.ts';
import type { ItemMatch, MergedIndex } from '../../engine/contamination/match.ts';
import type { TallyParts } from '../../engine/dataset/scan.ts';
import type { PackedRecords } from '../../engine/dataset/packed-records.ts';
import type { PackedVerifyWords } from '../../engine/dataset/duplicates.ts';
import type { RowMappingSpec } from '../../engine/rows/index.ts';
import type { ModelUsage } from '../../engine/usage.ts';
import type { PositionedTallyData } from '../dataset-checks/positioned-tally.ts';

/**
 * The tasks of a file's pass that the engine's workers run (tasks.ts), and
 * what they give back: plain data, since it crosses `postMessage`. Each task
 * is one slice of the file: whole lines of JSON Lines, where they are in the
 * file, and the number of the first.
 */

export interface SliceSource {
  /**
   * The file and the slice's byte range in it: the worker reads the bytes
   * itself, so the thread that hands slices out never copies or sends them.
   */
  path: string;
  start: number;
  length: number;
  /** The 1-based number of the slice's first line. */
  firstLine: number;
  mapping: RowMappingSpec;
}

/** What the contamination check looks for, as the thread that made it can send it. */
export interface MatcherSpec {
  /** Names the matcher in a worker's cache: one per run. */
  key: string;
  benchmarks: BenchmarkChoice;
  /** The user's evaluation sets, fingerprinted once by the run. */
  against: FingerprintSet[];
  /**
   * The index of those sets (benchmarks first), merged once by the run's
   * thread in shared memory (`ContaminationMatcher.sharedIndex`): a worker
   * lays it out rather than merging it again.
   */
  index?: MergedIndex;
}

/** The dataset checks' first pass over a slice: what the scan takes of each sample. */
export interface ScanSliceTask {
  kind: 'file-scan';
  source: SliceSource;
  threshold: number;
  contamination: MatcherSpec | null;
}

export interface ScanSliceResult {
  samples: number;
  /** Each sample's duplicate signature, one after another (`signatureLength` words each). */
  signatures: Uint32Array;
  signatureLength: number;
  /** Each sample's statistics record, packed for the thread that adds them. */
  statistics: PackedRecords;
  /** Each sample's origin (rows read along every path: its row); null when all are 0. */
  origins: number[] | null;
  /**
   * Each sample's line in the file (several samples of a tree share one),
   * so that a later pass can read just the lines it needs; null when not known.
   */
  rows: Uint32Array | null;
  /** The evaluation items found, by the sample's index in the slice (only samples with any). */
  found: [number, ItemMatch[]][];
}

/**
 * The texts the language sample reads (clipped as the scan clips them), of
 * some samples of a slice: those a shard's scan left out (see
 * `withoutLanguageTexts`) and the sample kept.
 */
export interface LanguageSliceTask {
  kind: 'file-language';
  /**
   * Slices, each with the indexes in it wanted (ascending) and where they
   * are: a few thousand rows spread over every slice of the file go in a few
   * tasks, not one per slice.
   */
  slices: { source: SliceSource; wanted: number[]; lines?: WordsSliceTask['lines'] }[];
}

/** Each wanted sample's text, slice after slice, in the task's order (null: the sample has none). */
export interface LanguageSliceResult {
  texts: (string | null)[];
}

/** The words near-duplicate verification compares, of some samples of a slice. */
export interface WordsSliceTask {
  kind: 'file-words';
  source: SliceSource;
  /** Indexes in the slice, ascending. */
  wanted: number[];
  /**
   * Where each wanted sample is: its line, and the index in the slice of its
   * line's first sample. With them only those lines are parsed; without, the
   * whole slice.
   */
  lines?: { line: number[]; firstOfLine: number[] };
}

/** What verification compares of the wanted samples (`verifyWords`), packed; `at[k]` is row k's index in the slice. */
export interface WordsSliceResult extends PackedVerifyWords {
  at: number[];
}

/** The dataset checks' issues of a slice's samples, by index in the slice. */
export interface SliceIssues {
  active: boolean;
  duplicates: [number, Issue[]][];
  contamination: [number, Issue[]][];
}

/** The operation over a slice, its output written as the run writes it. */
export interface RunSliceTask {
  kind: 'file-run';
  source: SliceSource;
  operation: Operation;
  config: unknown;
  conventions: string | undefined;
  issues: SliceIssues;
  /** Whether to give the input and output as JSON, for the run's history. */
  history: boolean;
  /** Where to put the output (see RunSliceResult), shared with the thread that writes it. */
  into: SharedArrayBuffer | null;
}

export interface RunSliceResult {
  samples: number;
  /**
   * The JSON Lines of the output samples, in order, as UTF-8 (written as
   * they are): the first `written` bytes of the task's `into` when they fit
   * (`output` null), else here.
   */
  output: Uint8Array | null;
  written: number;
  /** Rows that are not samples: their number and why. */
  errors: { row: number; error: string }[];
  counts: Record<string, number>;
  usage: Partial<Record<EngineModel, ModelUsage>>;
  tally: TallyParts;
  history?: { input: string; output: string };
}

/**
 * A shard's pass over one slice (`svc audit|fix|refine --shard I/N`): every
 * row is read, for the samples' places in the run's output and its language
 * sample, and only the shard's own rows are run.
 */
export interface ShardRunTask {
  kind: 'shard-run';
  source: SliceSource;
  shard: { index: number; of: number };
  operation: Operation;
  config: unknown;
  conventions: string | undefined;
  /** Whether the contamination check runs on the file (which verdicts a clean row carries). */
  contamination: boolean;
  history: boolean;
}

export interface ShardRunResult {
  /** Every sample of the slice, the shard's or not (its place in the run's output). */
  samples: number;
  /** Per sample of the slice: OWN_SAMPLE if the shard's, HAS_LANGUAGE_TEXT if it has one. */
  flags: Uint8Array;
  /** The language texts of the shard's samples that have one, in order (cut as a sample keeps them). */
  languageTexts: string[];
  /** The shard's samples: each one's index among the slice's samples and its source row. */
  at: number[];
  rows: number[];
  /** Each of them as its part row holds it (`sample`), as JSON. */
  json: string[];
  /** The shard's rows that are no sample. */
  errors: { row: number; error: string }[];
  counts: Record<string, number>;
  usage: Partial<Record<EngineModel, ModelUsage>>;
  /** The part's tally of these rows, positions counted from the slice's first sample. */
  tally: PositionedTallyData;
  recount: Record<string, number>;
  history?: { input: string; output: string };
}

export const OWN_SAMPLE = 1;
export const HAS_LANGUAGE_TEXT = 2;

/**
 * Rows of shards' parts in the merged order (`svc merge`): each checked,
 * given the dataset checks' verdicts, counted and written as one run would.
 */
export interface MergeRowsTask {
  kind: 'merge-rows';
  operation: Operation;
  /**
   * The parts' rows of this batch: per part, its file, the byte range of
   * its rows here (whole lines, one after another) and its shard.
   */
  parts: { path: string; start: number; length: number; shard: { shard: number; of: number } }[];
  /** Per row in position order: the index in `parts` of the part it is from. */
  from: number[];
  /** The output position of the batch's first row. */
  first: number;
  /** The verdicts the parts' rows carry (their header's `clean`). */
  clean: string[];
  issues: SliceIssues;
  /** As RunSliceTask's. */
  into: SharedArrayBuffer | null;
}

export interface MergeRowsResult {
  /** As RunSliceResult's. */
  output: Uint8Array | null;
  written: number;
  /** What the rows' dataset checks change in the tally the shards made. */
  changes: PositionedTallyData;
  /** And in the counts they can change (see `recountOf`): after less before, summed. */
  recount: Record<string, number>;
  /** The first row that is not one, by its index in the task. */
  error?: { index: number; what: string };
}

/**
 * One LSH band's candidate pairs (`bandPushes`): the dataset's near-duplicate
 * representatives and their hashes in the band, shared, not copied.
 */
export interface BandPairsTask {
  kind: 'band-pairs';
  reps: Uint32Array;
  column: Uint32Array;
  /** The number of rows (pairs are packed as a * n + b). */
  n: number;
}

export interface BandPairsResult {
  pushes: Float64Array;
}

/**
 * The dataset checks of one API request, over all of its samples (see
 * dataset-checks/request.ts); its result is a SliceIssues of the request's
 * positions.
 */
export interface RequestChecksTask {
  kind: 'request-checks';
  samples: Sample[];
  threshold: number;
  benchmarks: BenchmarkChoice;
}

/** The tokens of each of an API request's samples, for its preflight (billing/estimate.ts). */
export interface CountTokensTask {
  kind: 'count-tokens';
  samples: Sample[];
}

export type FileTask =
  | CountTokensTask
  | RequestChecksTask
  | ScanSliceTask
  | WordsSliceTask
  | LanguageSliceTask
  | RunSliceTask
  | ShardRunTask
  | MergeRowsTask
  | BandPairsTask;
