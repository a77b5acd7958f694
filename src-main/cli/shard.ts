import { createHash } from 'node:crypto';
import { fileChunks } from '../files/index.ts';
import { z } from 'zod';
import { AppError } from '../../src-shared/errors.ts';
import { OPERATIONS } from '../../src-shared/schemas/config.ts';
import { openJsonlSink } from './output.ts';

/**
 * `svc audit|fix|refine FILE --shard I/N`: one of N processes (a Kubernetes
 * Indexed Job's pod, a Slurm array task) running the per-row work of a file,
 * and the part file it writes for `svc merge`.
 *
 * The split is by source row, modulo N: row r (1-based, as the CLI's messages
 * number rows) belongs to shard (r - 1) mod N. Modulo rather than contiguous
 * ranges because datasets are often sorted (by source, length, difficulty),
 * which would make some ranges much slower than others, and because a shard
 * then needs no row count up front (a CSV with quoted newlines or a JSON
 * array cannot be counted without parsing it). All the paths of an
 * OpenAssistant tree come from one row, so they stay in one shard.
 *
 * Every shard still reads the whole file: the shape is detected on the first
 * rows exactly as a single run detects it, and a sample's position in the
 * single run's output (what `svc merge` orders by and the dataset checks name
 * rows by) counts the samples of every shard before it. Only the engine work
 * is split. The cross-row checks need the whole file: `svc merge` runs them.
 *
 * A part is JSON Lines: a header (the run's identity, which merge checks
 * every part against), one line per output row `{position, source_row,
 * sample}` in position order (the sample as one run writes a row in which the
 * dataset checks find nothing: merge splices most rows through as they are,
 * and changes only those with findings), and a trailer with the shard's
 * tallies. A part without its
 * trailer is a shard that did not finish.
 */

export interface Shard {
  /** 0-based. */
  index: number;
  of: number;
}

const MAX_SHARDS = 100_000;

/** `--shard I/N`, I 0-based (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID from 0). */
export function parseShard(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const of = Number(match?.[2]);
  if (!match || of < 1 || of > MAX_SHARDS || index >= of) {
    throw new AppError(
      'invalid_request',
      `--shard takes I/N, the 0-based shard I of N shards (0 <= I < N <= ${MAX_SHARDS}), got ${value}`,
    );
  }
  return { index, of };
}

/** Whether source row `row` (1-based) is the shard's. */
export function ownsRow(shard: Shard, row: number): boolean {
  return (row - 1) % shard.of === shard.index;
}

/** How many of `rows` source rows are the shard's (the progress bar's total). */
export function rowsOfShard(shard: Shard, rows: number): number {
  return rows > shard.index ? Math.floor((rows - 1 - shard.index) / shard.of) + 1 : 0;
}

/**
 * 2: rows carry the dataset checks' verdicts of a row where they find nothing
 * (the header's `clean`), and the trailer the shard's tally and recount.
 */
export const PART_FORMAT = 2;

const Counts = z.record(z.string(), z.number());
const TallyEntry = z.tuple([z.string(), z.number(), z.number(), z.number(), z.number()]);
const ModelUsage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  passes: z.number(),
});

/** What makes parts of one run: merge refuses parts that differ in any of it but `shard`. */
export const PartHeader = z.object({
  svc_part: z.literal(PART_FORMAT),
  version: z.string(),
  operation: z.enum(OPERATIONS),
  shard: z.number().int().nonnegative(),
  of: z.number().int().positive(),
  input: z.object({ path: z.string(), bytes: z.number(), sha256: z.string() }),
  /** The read flags (shape, field mapping, OpenAssistant paths): merge reads the file alike. */
  read: z.object({
    shape: z.string().optional(),
    mapping: z.unknown().optional(),
    paths: z.string().optional(),
  }),
  /** What the contamination check looks for: merge runs it on the whole file. */
  contamination: z.object({ benchmarks: z.string(), against: z.array(z.string()) }).optional(),
  config: z.unknown(),
  conventions: z.string().nullable(),
  /** Which engine ran each model role: mixing engines would not be one run's output. */
  engines: z.record(z.string(), z.string()),
  /**
   * The dataset checks whose verdicts every row carries as where they find
   * nothing (in this order, last): merge changes only the rows with findings.
   */
  clean: z.array(z.string()),
  /**
   * The trailer holds the languages of the shard's rows in the run's language
   * sample (`ShardLanguageSample`): merge counts them instead of identifying
   * the sample itself. Absent in parts written before.
   */
  language_labels: z.literal(true).optional(),
});
export type PartHeader = z.infer<typeof PartHeader>;

export const PartRow = z.object({
  position: z.number().int().nonnegative(),
  source_row: z.number().int(),
  sample: z.record(z.string(), z.unknown()),
});

export const PartTrailer = z.object({
  svc_part_end: z.literal(true),
  /** Output rows in the part, and source rows of the shard skipped as unreadable. */
  samples: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** The operation's counts before the dataset checks (merge recounts what they change). */
  counts: Counts,
  usage: z.record(z.string(), ModelUsage),
  cost_micro: z.number(),
  /** The shard's owner run, where its usage is recorded (its data folder). */
  run_id: z.string(),
  /** The verdict tally of the shard's rows as written, each name with where it was first counted. */
  tally: z.object({
    samples: z.number().int().nonnegative(),
    checks: z.array(TallyEntry),
    issues: z.array(TallyEntry),
  }),
  /** The counts the dataset checks can change (`recountOf`), over the rows as written. */
  recount: Counts,
  /** [output position, language] of each of the shard's rows in the run's language sample. */
  languages: z.array(z.tuple([z.number().int().nonnegative(), z.string()])).optional(),
});
export type PartTrailer = z.infer<typeof PartTrailer>;

/** The input's identity: its size and SHA-256 (a shared file on every node, or one copy each). */
export async function inputFingerprint(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of fileChunks(path)) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  } catch (error) {
    throw new AppError('invalid_request', `cannot read ${path}: ${(error as Error).message}`);
  }
  return { bytes, sha256: hash.digest('hex') };
}

export interface PartWriter {
  row(position: number, sourceRow: number, sample: unknown): Promise<void>;
  /** Rows whose sample is JSON already, as `row` writes them. */
  rowsOfJson(rows: readonly { position: number; sourceRow: number; json: string }[]): Promise<void>;
  close(trailer: Omit<PartTrailer, 'svc_part_end'>): Promise<void>;
  /** The run failed: no part, and no half-written one beside OUT. */
  discard(): Promise<void>;
}

/** A part, written beside OUT and renamed into place once its trailer is in (stdout without OUT). */
export async function openPartWriter(
  out: string | undefined,
  header: PartHeader,
): Promise<PartWriter> {
  const sink = openJsonlSink(out);
  await sink.write(header);
  return {
    row: (position, source_row, sample) => sink.write({ position, source_row, sample }),
    // What JSON.stringify makes of { position, source_row, sample }, without parsing the sample.
    rowsOfJson: (rows) =>
      sink.writeBytes(
        Buffer.from(
          rows
            .map(
              ({ position, sourceRow, json }) =>
                `{"position":${position},"source_row":${sourceRow},"sample":${json}}\n`,
            )
            .join(''),
        ),
      ),
    close: async (trailer) => {
      await sink.write({ svc_part_end: true, ...trailer });
      await sink.close();
    },
    discard: () => sink.discard(),
  };
}
