import type { Operation } from '../../src-shared/schemas/config.ts';
import type { ModelUsage } from '../engine/usage.ts';

/**
 * The summary a file operation prints on stderr, shared by a single run, a
 * shard and `svc merge` (which prints the shards' combined figures).
 */

/**
 * A whole number with commas between thousands, as `toLocaleString('en-US')`
 * writes it: that call's first use loads ICU's number formatting, ~11 ms of
 * a short command's main thread for the few numbers a summary prints.
 */
export function withThousands(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** `n` and its noun, singular for one: "1 sample", "2 rows". */
export function counted(n: number, noun: string): string {
  return `${withThousands(n)} ${n === 1 ? noun : `${noun}s`}`;
}

export function describeCounts(operation: Operation, counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([name, n]) =>
    name === 'samples' ? counted(n, 'sample') : `${withThousands(n)} ${name.replace('_', ' ')}`,
  );
  // An input with no sample has no counts at all.
  return `${operation}: ${parts.length > 0 ? parts.join(', ') : '0 samples'}`;
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
      (run.skipped ? `, ${counted(run.skipped, 'row')} skipped` : ''),
    `tokens: ${withThousands(input)} in, ${withThousands(output)} out` +
      models
        .map(
          ([model, u]) =>
            ` | ${model}: ${u.input_tokens} in, ${u.output_tokens} out, ` +
            `${u.passes} ${u.passes === 1 ? 'pass' : 'passes'}`,
        )
        .join(''),
    `usage: $${(run.costMicro / 1e6).toFixed(6)} at the rates in force, not charged (${run.charged}) | ` +
      `${run.seconds.toFixed(1)} s, ${(run.samples / Math.max(run.seconds, 1e-9)).toFixed(0)} samples/s`,
  ];
}
