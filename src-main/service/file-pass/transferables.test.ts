import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { RecordPacker } from '../../engine/dataset/packed-records.ts';
import { transferablesOf } from './transferables.ts';

describe("a task's transferables", () => {
  it('are its typed arrays and those of an object it holds, each buffer once', async () => {
    const packer = new RecordPacker();
    packer.add({ type: 'text', lengths: [['text', 5]], language: 'hello' });
    const statistics = packer.pack();
    const signatures = new Uint32Array([1, 2, 3]);
    const result = {
      samples: 1,
      signatures,
      same: signatures.subarray(1),
      statistics,
      shared: new Uint32Array(new SharedArrayBuffer(8)),
      found: [[0, [{ set: 'gsm8k/test', item: 1 }]]],
    };
    const buffers = transferablesOf(result);
    expect(buffers).toContain(signatures.buffer);
    expect(buffers).toContain(statistics.languageChars.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
    // Memory every thread shares is never moved.
    expect(buffers).not.toContain(result.shared.buffer);

    const { port1, port2 } = new MessageChannel();
    const received = new Promise<typeof result>((resolve) =>
      port2.once('message', (message: typeof result) => resolve(message)),
    );
    port1.postMessage(result, buffers);
    const got = await received;
    port1.close();
    // Moved, not copied: the sender's arrays are emptied.
    expect(statistics.languageChars.length).toBe(0);
    expect(got.statistics.languageChars.length).toBe(5);
    expect([...got.signatures]).toEqual([1, 2, 3]);
  });
});
