import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../src-shared/errors.ts';
import { readJsonl } from '../read/jsonl.ts';
import { writeText } from './text.ts';

type Row = Record<string, unknown>;

/** What a column holds, for choosing its Parquet type. */
export type ValueKind = 'boolean' | 'int32' | 'int64' | 'double' | 'string' | 'json';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function kindOfValue(value: unknown): ValueKind | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 ? 'int32' : 'double';
  }
  if (typeof value === 'string') return 'string';
  // An integer past 2^53 read exactly (src-shared/exact-json.ts); past 64 bits, only JSON holds it.
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX ? 'int64' : 'json';
  return 'json';
}

/**
 * Rows that can be read twice, and what their columns hold: the union of
 * their keys in first-seen order and the kinds of value under each. Writers
 * that need the whole header first (CSV, Parquet) use it. An array is used as
 * it is; any other source is spooled to a JSON Lines file in the OS temp
 * folder, so memory stays bounded; `dispose` removes it.
 */
export interface Spooled {
  keys: string[];
  kinds: Map<string, Set<ValueKind>>;
  count: number;
  rows(): AsyncIterable<Row>;
  dispose(): Promise<void>;
}

function tally(row: Row, kinds: Map<string, Set<ValueKind>>): void {
  for (const [key, value] of Object.entries(row)) {
    let set = kinds.get(key);
    if (!set) kinds.set(key, (set = new Set()));
    const kind = kindOfValue(value);
    if (kind) set.add(kind);
  }
}

export async function spool(source: AsyncIterable<Row> | Iterable<Row>): Promise<Spooled> {
  const kinds = new Map<string, Set<ValueKind>>();
  if (Array.isArray(source)) {
    const rows = source as Row[];
    for (const row of rows) tally(row, kinds);
    return {
      keys: [...kinds.keys()],
      kinds,
      count: rows.length,
      rows: async function* () {
        await Promise.resolve();
        yield* rows;
      },
      dispose: () => Promise.resolve(),
    };
  }
  const folder = await mkdtemp(join(tmpdir(), 'svc-spool-'));
  const file = join(folder, 'rows.jsonl');
  let count = 0;
  try {
    await writeText(
      file,
      (async function* () {
        for await (const row of source) {
          tally(row, kinds);
          count++;
          yield JSON.stringify(row) + '\n';
        }
      })(),
    );
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    keys: [...kinds.keys()],
    kinds,
    count,
    rows: async function* () {
      for await (const result of readJsonl(file)) {
        if ('error' in result)
          throw new AppError('internal_error', `spooled row ${result.row}: ${result.error}`);
        yield result.value;
      }
    },
    dispose: () => rm(folder, { recursive: true, force: true }),
  };
}
