import { countTokens as countBpeTokens } from 'gpt-tokenizer';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { textRead } from '../src-main/engine/read-text.ts';
import { CORPORA, replicate } from './corpus.ts';
import { runOperationInThread } from '../src-main/service/runs/operation.ts';
import { formatRow } from './stats.ts';

/**
 * Engine throughput on the real datasets, replicated to `perType` samples of
 * each task type (each copy made distinct, so no cache can flatter the
 * figures), beside two baselines measured on the same text in the same run:
 * JSON.parse of the JSONL lines, and the BPE tokenizer alone on the text the
 * audit reads.
 */

function timeIt(run: () => void): number {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
}

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

type Operation = 'audit' | 'fix' | 'refine';

function request(operation: Operation, batch: Sample[]) {
  return operation === 'audit'
    ? { operation, samples: batch, config: { votes: 1 } }
    : operation === 'fix'
      ? { operation, samples: batch, config: { max_attempts: 3 } }
      : {
          operation,
          samples: batch,
          config: { audit: { votes: 1 }, fix: { max_attempts: 3 }, reaudit: { votes: 1 } },
        };
}

/**
 * Each pass is timed `rounds` times, the rounds interleaved (parse, tokenizer,
 * audit, fix, refine, then again), and the fastest time of each is kept: on a
 * machine shared with other work, a ratio of two passes timed seconds apart
 * otherwise measures the neighbours as much as the engine.
 */
export async function benchEngine(perType: number, rounds = 2): Promise<void> {
  console.log(
    `\n## engine: builtin backend, ${perType.toLocaleString('en-US')} samples per task type ` +
      `(${(perType * 4).toLocaleString('en-US')} in all), one core, best of ${rounds} interleaved rounds`,
  );
  const widths = [16, 22, 12, 10, 10];
  console.log(formatRow(['task type', 'pass', 'samples/s', 'MB/s', 'x tokenizer'], widths));
  const BATCH = 1000;
  for (const [type, corpus] of Object.entries(CORPORA)) {
    const base = corpus();
    const first = replicate(base, perType);
    const megabytes = first.reduce((n, s) => n + Buffer.byteLength(JSON.stringify(s)) + 1, 0) / 1e6;

    let tokens = 0;
    const best = new Map<string, number>();
    const keep = (pass: string, seconds: number): void => {
      best.set(pass, Math.min(best.get(pass) ?? Infinity, seconds));
    };
    for (let round = 0; round < rounds; round++) {
      // Fresh copies each round: a cache warmed by one round cannot flatter the next.
      const samples = round === 0 ? first : replicate(base, perType, round);
      const lines = samples.map((s) => JSON.stringify(s));
      const texts = samples.map(textRead);
      keep(
        'parse',
        timeIt(() => {
          for (const line of lines) JSON.parse(line);
        }),
      );
      tokens = 0;
      keep(
        'tokenizer',
        timeIt(() => {
          for (const text of texts) tokens += countBpeTokens(text);
        }),
      );
      for (const operation of ['audit', 'fix', 'refine'] as const) {
        keep(
          operation,
          await timeAsync(async () => {
            for (let i = 0; i < samples.length; i += BATCH) {
              const batch = samples.slice(i, i + BATCH);
              await runOperationInThread(request(operation, batch), { backend: builtinBackend });
            }
          }),
        );
      }
    }
    const tokenizerSeconds = best.get('tokenizer') ?? 1;
    const rows: [string, number][] = [
      ['JSON.parse', best.get('parse') ?? 0],
      [`tokenizer (${(tokens / 1e6).toFixed(1)}M tok)`, tokenizerSeconds],
      ...(['audit', 'fix', 'refine'] as const).map((op): [string, number] => [
        op,
        best.get(op) ?? 0,
      ]),
    ];
    for (const [pass, seconds] of rows) {
      console.log(
        formatRow(
          [
            type,
            pass,
            perType / seconds,
            megabytes / seconds,
            (seconds / tokenizerSeconds).toFixed(2),
          ],
          widths,
        ),
      );
    }
  }
}
