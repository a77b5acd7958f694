import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { sampleLanguageText } from '../../engine/dataset/statistics.ts';
import { SampleError } from '../../engine/sample-error.ts';
import {
  addCounts,
  cleanVerdicts,
  datasetChecksOnly,
  recountOf,
  withDatasetVerdicts,
} from '../dataset-checks/core.ts';
import { PositionedTally } from '../dataset-checks/positioned-tally.ts';
import { runBuiltinInThread } from '../runs/builtin-run.ts';
import type { OperationRequest } from '../runs/contract.ts';
import { sliceSamples } from './slice-samples.ts';
import {
  HAS_LANGUAGE_TEXT,
  OWN_SAMPLE,
  type ShardRunResult,
  type ShardRunTask,
} from './task-types.ts';

/**
 * A shard's slice, as an engine worker runs it: what the shard's thread did
 * row by row for the whole file (read and map every row, to know each
 * sample's place in the run's output and which of them the run's language
 * sample may draw), then its own rows through the engine and into the form
 * its part holds them in (cli/shard-rows.ts `CleanRows`). The shard's thread
 * only numbers the slices' samples, draws the language sample and writes.
 */
export async function shardRunSlice(
  task: ShardRunTask,
  signal: AbortSignal,
): Promise<ShardRunResult> {
  const { index, of } = task.shard;
  const owned: Sample[] = [];
  const at: number[] = [];
  const rows: number[] = [];
  const languageTexts: string[] = [];
  const errors: ShardRunResult['errors'] = [];
  const flags: number[] = [];
  for (const item of sliceSamples(task.source)) {
    const own = (item.row - 1) % of === index;
    if (!('sample' in item)) {
      if (own) errors.push({ row: item.row, error: item.error });
      continue;
    }
    const text = sampleLanguageText(item.sample);
    flags.push((own ? OWN_SAMPLE : 0) | (text === undefined ? 0 : HAS_LANGUAGE_TEXT));
    if (!own) continue;
    if (text !== undefined) languageTexts.push(text);
    at.push(flags.length - 1);
    rows.push(item.row);
    owned.push(item.sample);
  }
  const request = {
    operation: task.operation,
    samples: owned,
    config: task.config,
    conventions: task.conventions,
  } as OperationRequest;
  const input = task.history ? JSON.stringify(owned) : undefined;
  const result = await runBuiltinInThread(request, signal).catch((error: unknown) => {
    // Named by its row: its place among this slice's rows of the shard says nothing to anyone.
    if (!(error instanceof SampleError)) throw error;
    const { cause } = error;
    // The cause's stack in the message: an error crosses to the main thread without its cause.
    const reason =
      cause instanceof Error ? (cause.stack ?? `${cause.name}: ${cause.message}`) : String(cause);
    throw new Error(`the engine failed on row ${rows[error.sampleIndex]}: ${reason}`, { cause });
  });
  const verdicts = cleanVerdicts(task.contamination);
  const tally = new PositionedTally();
  const recount: Record<string, number> = {};
  const json = result.data.map((output, k) => {
    const row = withDatasetVerdicts(task.operation, output, verdicts);
    tally.add(row.audit ?? datasetChecksOnly(verdicts), at[k] as number);
    addCounts(recount, recountOf(task.operation, row));
    return JSON.stringify(row);
  });
  return {
    samples: flags.length,
    flags: Uint8Array.from(flags),
    languageTexts,
    at,
    rows,
    json,
    errors,
    counts: result.counts,
    usage: result.usage.byModel(),
    tally: tally.entries(),
    recount,
    ...(input !== undefined && {
      history: { input, output: JSON.stringify(result.data) },
    }),
  };
}
