import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import type { FingerprintSet } from '../engine/contamination/fingerprints.ts';
import { headMapping, mappingSpecOf, type RowMappingSpec } from '../engine/rows/index.ts';
import { sliceBytes, type LineSlice } from '../service/file-pass/line-slices.ts';
import { cutLines } from '../service/file-pass/line-cutter.ts';
import { orderedMap } from '../service/file-pass/ordered.ts';
import {
  indexed,
  scanTasks,
  type PassContamination,
  TaskRunner,
  type PreparedScan,
} from '../service/file-pass/parallel-pass.ts';
import { filePassPool } from '../service/runs/pool/pooled.ts';
import { readHead, type ReadSamplesOptions } from '../service/samples/read-samples.ts';
import { filePassContamination, type FileContamination } from './contamination-flags.ts';
import type { ScanSliceResult } from '../service/file-pass/task-types.ts';
import { withoutLanguageTexts } from '../engine/dataset/packed-records.ts';
import type { FileScanOptions } from './parallel-scan.ts';
import type { Shard } from './shard.ts';

/**
 * The dataset checks' scan, shared out among the shards. `svc merge` needs
 * the scan of the whole file (signatures, statistics, evaluation items found
 * in each row) before it can give any row its verdicts; made there, it was
 * most of the merge (4.3 of 5.2 s for 100,000 rows). So each shard of a JSON
 * Lines file also scans its share of the file's slices (slice k is shard
 * k mod N's) and leaves the results beside its part (`PART.scan`); the merge
 * takes them in the file's order, as its own scan would have made them, and
 * scans itself only a slice no part brings (a part copied without its scan,
 * another slice size, another threshold or mapping or evaluation set).
 *
 * The file: frames of a 4-byte little-endian length, the CRC-32 of the
 * length and the body (4 bytes, little-endian), and the body, a V8
 * serialization (what postMessage sends: typed arrays as they are); a header
 * first, then each slice's result in the file's order. A frame whose sum is
 * not its bytes' is not read: its slice is scanned in the merge. Without the
 * sum, a byte flipped in a slice's signatures read as other signatures: one
 * damaged byte made a merge of 3,000 rows run for nine minutes at 99% (an
 * LSH bucket of garbage), or end in a stack trace. Written beside the part under
 * another name and renamed once complete: a shard that stops leaves none.
 * The rows' language texts are left out (`withoutLanguageTexts`): they were
 * nine tenths of the file, and the merge reads again from the input only
 * the rows its language sample keeps.
 */

/** 2: the rows' language texts are left out (`withoutLanguageTexts`). 3: each frame's CRC-32. */
export const SCAN_FORMAT = 3;

/** What makes a shard's scan the merge's own: every field must be equal. */
export interface ShardScanHeader {
  svc_scan: typeof SCAN_FORMAT;
  shard: number;
  of: number;
  sliceBytes: number;
  threshold: number;
  /** The row mapping's spec, as JSON. */
  mapping: string;
  /** The benchmark sets and the user's evaluation sets looked for (a digest). */
  contamination: string;
}

interface SliceFrame {
  index: number;
  start: number;
  length: number;
  firstLine: number;
  result: ScanSliceResult;
}

export const scanPathOf = (part: string): string => `${part}.scan`;

/** A digest of what the contamination check looks for: the sets' names and their keys' bytes. */
export function contaminationDigest(contamination: PassContamination): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(contamination.matcher ? contamination.benchmarks : 'none'));
  const bytes = (array: ArrayBufferView): Buffer =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  for (const set of contamination.matcher ? contamination.against : ([] as FingerprintSet[])) {
    hash.update(`${set.name}\0${set.items}\0`);
    for (const part of [set.keys, set.refs, set.totals, set.sizes]) hash.update(bytes(part));
  }
  return hash.digest('hex');
}

export function scanHeader(
  shard: Shard,
  threshold: number,
  mapping: RowMappingSpec,
  contamination: PassContamination,
): ShardScanHeader {
  return {
    svc_scan: SCAN_FORMAT,
    shard: shard.index,
    of: shard.of,
    sliceBytes: sliceBytes(),
    threshold,
    mapping: JSON.stringify(mapping),
    contamination: contaminationDigest(contamination),
  };
}

/** A frame of the scan file (see the file's layout above). */
export function frame(value: unknown): Buffer {
  const body = serialize(value);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length);
  head.writeUInt32LE(crc32(body, crc32(head.subarray(0, 4))), 4);
  return Buffer.concat([head, body]);
}

/**
 * Scans the shard's slices of `input` on the runner and writes them to
 * `scanPathOf(part)`; gives the samples scanned. `onScanned`: told after
 * each slice where in the file it ends (0..1) and the samples so far.
 */
export async function writeShardScan(
  runner: TaskRunner,
  input: string,
  mapping: RowMappingSpec,
  header: ShardScanHeader,
  contamination: PassContamination,
  part: string,
  signal: AbortSignal,
  onScanned?: FileScanOptions['onScanned'],
): Promise<number> {
  const path = scanPathOf(part);
  const bytes = onScanned ? statSync(input).size : 0;
  let samples = 0;
  const partial = `${path}.partial`;
  const taskOf = scanTasks(input, mapping, header.threshold, contamination, runner.workers);
  const file = await open(partial, 'w');
  try {
    await file.write(frame(header));
    await orderedMap(
      owned(indexed(cutLines(input, signal)), header),
      runner.window,
      ([slice]) => runner.run<ScanSliceResult>(taskOf(slice)),
      async (result, [slice, index]) => {
        const { start, length, firstLine } = slice;
        // The texts were nine tenths of the bytes; the merge reads again the few its sample keeps.
        const written = { ...result, statistics: withoutLanguageTexts(result.statistics) };
        await file.write(
          frame({ index, start, length, firstLine, result: written } satisfies SliceFrame),
        );
        samples += result.samples;
        onScanned?.(Math.min(1, (start + length) / bytes), samples);
      },
    );
    await file.close();
    renameSync(partial, path);
    return samples;
  } catch (error) {
    await file.close().catch(() => undefined);
    rmSync(partial, { force: true });
    throw error;
  }
}

async function* owned(
  slices: AsyncIterable<[LineSlice, number]>,
  { shard, of }: Pick<ShardScanHeader, 'shard' | 'of'>,
): AsyncGenerator<[LineSlice, number]> {
  for await (const item of slices) if (item[1] % of === shard) yield item;
}

/**
 * A shard's share of the scan, for a JSON Lines input, beside its part: the
 * mapping chosen on the file's first rows as the merge chooses it. Nothing
 * for a file without rows (the merge scans what there is).
 */
export async function scanShardShare(
  input: string,
  read: ReadSamplesOptions,
  threshold: number,
  options: FileContamination,
  shard: Shard,
  part: string,
  signal: AbortSignal,
  onScanned?: FileScanOptions['onScanned'],
): Promise<number> {
  const mapping = headMapping(input, await readHead(input, 'jsonl'), read);
  if (!mapping) return 0;
  const spec = mappingSpecOf(mapping);
  const contamination = await filePassContamination(options, read);
  const header = scanHeader(shard, threshold, spec, contamination);
  const runner = new TaskRunner(filePassPool(), signal);
  return writeShardScan(runner, input, spec, header, contamination, part, signal, onScanned);
}

/** One part's scan, read front to back as the merge asks for its slices in order. */
class ScanReader {
  readonly #fd: number;
  readonly #size: number;
  #at = 0;
  #next: SliceFrame | null | undefined;

  constructor(fd: number) {
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
  }

  /**
   * The next frame, or null at the end (or where the file is cut short);
   * throws for a frame whose bytes are not what was written (skipped: the
   * next read is the frame after, when its length was not what was damaged).
   */
  read(): unknown {
    const head = Buffer.alloc(8);
    if (readSync(this.#fd, head, 0, 8, this.#at) < 8) return null;
    const length = head.readUInt32LE();
    // A length past the file's end is no frame (a damaged length asked for gigabytes).
    if (this.#at + 8 + length > this.#size) return null;
    const body = Buffer.allocUnsafe(length);
    if (readSync(this.#fd, body, 0, length, this.#at + 8) < length) return null;
    this.#at += 8 + length;
    if (crc32(body, crc32(head.subarray(0, 4))) !== head.readUInt32LE(4)) {
      throw new Error('a damaged frame');
    }
    return deserialize(body);
  }

  /** Slice `index`'s result, when this part has it for the slice where it is now. */
  take(index: number, slice: LineSlice): ScanSliceResult | undefined {
    if (this.#next === undefined) this.#next = this.read() as SliceFrame | null;
    while (this.#next && this.#next.index < index) this.#next = this.read() as SliceFrame | null;
    const frame = this.#next;
    if (frame?.index !== index) return undefined;
    this.#next = undefined;
    const same =
      frame.start === slice.start &&
      frame.length === slice.length &&
      frame.firstLine === slice.firstLine;
    return same ? frame.result : undefined;
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/**
 * The parts' scans (`parts`: each part's path and shard) where their header
 * is `expected`'s but for the shard: a `PreparedScan` for the merge's scan,
 * with how many slices it gave. A part without a usable scan gives none.
 */
export function openShardScans(
  parts: readonly { path: string; shard: number }[],
  expected: ShardScanHeader,
): { prepared: PreparedScan; taken: () => number; close: () => void } {
  const readers = new Map<number, ScanReader>();
  for (const { path, shard } of parts) {
    const scan = scanPathOf(path);
    if (!existsSync(scan)) continue;
    const reader = new ScanReader(openSync(scan, 'r'));
    let header: unknown;
    try {
      header = reader.read();
    } catch {
      header = null; // not a scan this version can read: scanned here
    }
    if (JSON.stringify(header) === JSON.stringify({ ...expected, shard }))
      readers.set(shard, reader);
    else reader.close();
  }
  let taken = 0;
  return {
    prepared: (index, slice) => {
      let result: ScanSliceResult | undefined;
      try {
        result = readers.get(index % expected.of)?.take(index, slice);
      } catch {
        result = undefined; // a damaged frame: the slice is scanned here
      }
      if (result) taken++;
      return result;
    },
    taken: () => taken,
    close: () => {
      for (const reader of readers.values()) reader.close();
    },
  };
}
