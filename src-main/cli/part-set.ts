import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../../src-shared/errors.ts';
import type { PartReader } from './part-reader.ts';
import type { PartHeader } from './shard.ts';

/**
 * Whether parts make one run, before any row is merged: the same operation,
 * input (size and SHA-256; its path may differ from node to node), read
 * flags, config, conventions, engines and svc version, the same N, and each
 * shard 0..N-1 exactly once. Returns them in shard order.
 */

const invalid = (message: string): AppError => new AppError('invalid_request', message);

/** The header fields that make a run, named as the error names them. */
const IDENTITY: [string, (h: PartHeader) => unknown][] = [
  ['operation', (h) => h.operation],
  ['number of shards', (h) => h.of],
  ['input file (size and SHA-256)', (h) => [h.input.bytes, h.input.sha256]],
  ['read flags (--shape, --task-type/--map, --oasst-paths)', (h) => h.read],
  ['options (--votes, --max-attempts)', (h) => h.config],
  ['conventions', (h) => h.conventions],
  ['engines (upstream settings)', (h) => h.engines],
  ['svc version', (h) => h.version],
  ['contamination check (--benchmarks, --against)', (h) => h.clean],
];

const show = (value: unknown): string => JSON.stringify(value);

export function checkPartSet(parts: readonly PartReader[]): PartReader[] {
  const [first] = parts;
  if (!first) throw invalid('svc merge needs the parts to merge');
  for (const part of parts) {
    for (const [field, get] of IDENTITY) {
      if (!isDeepStrictEqual(get(part.header), get(first.header))) {
        throw invalid(
          `${first.path} and ${part.path} are parts of different runs: they differ in their ${field} ` +
            `(${show(get(first.header))} and ${show(get(part.header))})`,
        );
      }
    }
  }
  const of = first.header.of;
  const byShard = new Map<number, PartReader>();
  for (const part of parts) {
    const twin = byShard.get(part.header.shard);
    if (twin) {
      throw invalid(
        `shard ${part.header.shard}/${of} is given twice: ${twin.path} and ${part.path}`,
      );
    }
    byShard.set(part.header.shard, part);
  }
  const missing = Array.from({ length: of }, (_, i) => i).filter((i) => !byShard.has(i));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(', ') + (missing.length > 20 ? ', ...' : '');
    throw invalid(
      `${missing.length === 1 ? 'shard' : 'shards'} ${shown} of ${of} ${missing.length === 1 ? 'is' : 'are'} ` +
        `missing: svc merge needs the parts of all ${of} shards`,
    );
  }
  return [...byShard.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
}
