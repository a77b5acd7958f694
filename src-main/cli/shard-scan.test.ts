import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScanSliceResult } from '../service/file-pass/task-types.ts';
import {
  frame,
  openShardScans,
  scanPathOf,
  SCAN_FORMAT,
  type ShardScanHeader,
} from './shard-scan.ts';
import { tempDirs } from './testing/cli-test-kit.ts';

const tempDir = tempDirs('svc-shard-scan-');

const header: ShardScanHeader = {
  svc_scan: SCAN_FORMAT,
  shard: 0,
  of: 1,
  sliceBytes: 1000,
  threshold: 0.8,
  mapping: '{}',
  contamination: 'none',
};

/** A slice's result as the merge takes it; its signatures a known run of numbers. */
const resultOf = (index: number) =>
  ({
    samples: index + 1,
    signatures: Uint32Array.from({ length: 64 }, (_, i) => 0x51c0 + index * 64 + i),
  }) as unknown as ScanSliceResult;

const sliceOf = (index: number) => ({
  start: index * 1000,
  length: 1000,
  firstLine: index * 10 + 1,
});

describe("a part's scan file", () => {
  it('gives every slice whose frame is intact, and none whose bytes were changed', () => {
    const dir = tempDir();
    const part = join(dir, 'part-0.jsonl');
    const frames = [0, 1, 2].map((index) =>
      frame({ index, ...sliceOf(index), result: resultOf(index) }),
    );
    const file = Buffer.concat([frame(header), ...frames]);
    // One bit of slice 1's signatures flipped: still a valid serialization, of other numbers.
    const value = Buffer.alloc(4);
    value.writeUInt32LE(0x51c0 + 64 + 10);
    const at = file.indexOf(value);
    expect(at).toBeGreaterThan(0);
    file[at] = (file[at] as number) ^ 0x04;
    writeFileSync(scanPathOf(part), file);

    const scans = openShardScans([{ path: part, shard: 0 }], header);
    try {
      const taken = [0, 1, 2].map((index) => scans.prepared(index, sliceOf(index)));
      expect(taken.map((result) => (result as { samples?: number } | undefined)?.samples)).toEqual([
        1,
        undefined,
        3,
      ]);
      expect(scans.taken()).toBe(2);
    } finally {
      scans.close();
    }
  });

  it('is not read at all when its header is damaged, nor when a length runs past its end', () => {
    const dir = tempDir();
    const part = join(dir, 'part-0.jsonl');
    const first = frame(header);
    first[first.length - 3] = (first[first.length - 3] as number) ^ 0xff;
    writeFileSync(
      scanPathOf(part),
      Buffer.concat([first, frame({ index: 0, ...sliceOf(0), result: resultOf(0) })]),
    );
    const damaged = openShardScans([{ path: part, shard: 0 }], header);
    expect(damaged.prepared(0, sliceOf(0))).toBeUndefined();
    damaged.close();

    const second = frame({ index: 0, ...sliceOf(0), result: resultOf(0) });
    second.writeUInt32LE(0xfffffff0); // a length of 4 GiB: no allocation, no frame
    writeFileSync(scanPathOf(part), Buffer.concat([frame(header), second]));
    const cut = openShardScans([{ path: part, shard: 0 }], header);
    expect(cut.prepared(0, sliceOf(0))).toBeUndefined();
    cut.close();
  });
});
