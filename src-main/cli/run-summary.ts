import type { Operation } from '../../src-shared/schemas/config.ts';
import type { ModelUsage } from '../engine/usage.ts';

/**
 * The summary a file operation prints on stderr, shared by a single run, a
 * shard and `svc merge` (which prints the shards' combined figures).
 */

export function describeCounts(operation: Operation, counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(
    ([name, n]) => `${n.toLocaleString('en-US')} ${name.replace('_', ' ')}`,
  );
  return `${operation}: ${parts.join(', ')}`;
}

export interface RunSummary {
  operation: Operation;
  counts: Record<string, number>;
  skipped: number;
  usage: Partial<Record<string, ModelUsage>>;
  costMicro: number;
  /** Whose run it was: `your own run, cli_...`, or the shards' runs. */
  charged: string;
  samples: number;
  seconds: number;
}

export function summaryLines(run: RunSummary): string[] {
  const models = Object.entries(run.usage) as [string, ModelUsage][];
  const input = models.reduce((sum, [, u]) => sum + u.input_tokens, 0);
  const output = models.reduce((sum, [, u]) => sum + u.output_tokens, 0);
  return [
    describeCounts(run.operation, run.counts) +
      (run.skipped ? `, ${run.skipped} rows skipped` : ''),
    `tokens: ${input.toLocaleString('en-US')} in, ${output.toLocaleString('en-US')} out` +
      models
        .map(
          ([model, u]) =>
            ` | ${model}: ${u.input_tokens} in, ${u.output_tokens} out, ${u.passes} passes`,
        )
        .join(''),
    `usage: $${(run.costMicro / 1e6).toFixed(6)} at the rates in force, not charged (${run.charged}) | ` +
      `${run.seconds.toFixed(1)} s, ${(run.samples / Math.max(run.seconds, 1e-9)).toFixed(0)} samples/s`,
  ];
}
