import type { Operation } from '../../src-shared/schemas/config.ts';
import type { ShardLanguageSample } from '../engine/dataset/shard-language-sample.ts';
import { headMapping, mappingSpecOf } from '../engine/rows/index.ts';
import { cutLines } from '../service/file-pass/line-cutter.ts';
import { orderedMap } from '../service/file-pass/ordered.ts';
import { sourceOf, TaskRunner } from '../service/file-pass/parallel-pass.ts';
import {
  HAS_LANGUAGE_TEXT,
  OWN_SAMPLE,
  type ShardRunResult,
} from '../service/file-pass/task-types.ts';
import type { EnginePool } from '../service/runs/pool/pool.ts';
import { readHead, type ReadSamplesOptions } from '../service/samples/read-samples.ts';
import type { PartWriter, Shard } from './shard.ts';
import type { CleanRows } from './shard-rows.ts';

/** What a shard's pass writes its rows and their counts into. */
export interface ShardPassOutput {
  part: PartWriter;
  cleanRows: CleanRows;
  languageSample: ShardLanguageSample;
}

export interface ShardPassRun {
  operation: Operation;
  config: unknown;
  conventions: string | undefined;
  /** Whether the contamination check runs on the file (see CleanRows). */
  contamination: boolean;
  history: boolean;
}

/**
 * A shard's pass over a JSON Lines file on the engine's workers, slice by
 * slice (service/file-pass/shard-run-task.ts): each worker reads and maps
 * every row of its slice, runs the shard's own and makes their part rows;
 * this thread numbers the samples in the file's order, draws the run's
 * language sample and writes. It read and mapped the whole file itself,
 * a second of CPU per 100,000 rows in every shard (a sixteenth of them its
 * own), with the workers waiting on it. The part is the row-at-a-time pass's
 * byte for byte (cli/file-pass.process.test.ts). `take` gets each slice's
 * result, for what the caller counts and records (usage, counts, the rows
 * that are no sample), and `write`, which writes its part rows: called in
 * the file's order once their usage is recorded. False, with nothing done, for a file
 * without rows: the row-at-a-time pass says what it says of those.
 */
export async function runShardOnPool(
  pool: EnginePool,
  input: string,
  read: ReadSamplesOptions,
  shard: Shard,
  run: ShardPassRun,
  into: ShardPassOutput,
  take: (result: ShardRunResult, write: () => Promise<void>) => Promise<void>,
  signal: AbortSignal,
): Promise<boolean> {
  const mapping = headMapping(input, await readHead(input, 'jsonl'), read);
  if (!mapping) return false;
  read.onMapping?.(mapping);
  const spec = mappingSpecOf(mapping);
  const runner = new TaskRunner(pool, signal);
  let position = 0;
  await orderedMap(
    cutLines(input, signal),
    runner.window,
    (slice) =>
      runner.run<ShardRunResult>({
        kind: 'shard-run',
        source: sourceOf(input, slice, spec),
        shard: { index: shard.index, of: shard.of },
        ...run,
      }),
    async (result) => {
      const first = position;
      let text = 0;
      for (let k = 0; k < result.samples; k++) {
        const flags = result.flags[k] as number;
        const owned = (flags & OWN_SAMPLE) !== 0;
        const hasText = (flags & HAS_LANGUAGE_TEXT) !== 0;
        into.languageSample.seeText(
          hasText,
          first + k,
          owned,
          owned && hasText ? result.languageTexts[text++] : undefined,
        );
      }
      into.cleanRows.absorb(result, first);
      position += result.samples;
      const rows = result.at.map((at, j) => ({
        position: first + at,
        sourceRow: result.rows[j] as number,
        json: result.json[j] as string,
      }));
      await take(result, () => (rows.length > 0 ? into.part.rowsOfJson(rows) : Promise.resolve()));
    },
  );
  return true;
}
