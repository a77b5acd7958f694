import { once } from 'node:events';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/**
 * A worker that gives its heap back before it ends (release-heap.ts) leaves
 * its pages to no other thread: its heap's memory is returned at once, on
 * its own thread, and `gc` is not left exposed to code that runs after.
 */
describe('a worker giving its heap back', () => {
  it('returns most of its heap at once, and leaves no gc function behind', async () => {
    const worker = new Worker(new URL('./testing/release-heap-worker.ts', import.meta.url));
    const [report] = (await once(worker, 'message')) as [
      { before: number; after: number; exposed: boolean },
    ];
    await once(worker, 'exit');
    expect(report.before).toBeGreaterThan(40e6);
    expect(report.after).toBeLessThan(report.before / 3);
    expect(report.exposed).toBe(false);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('lets workers that give their heaps back side by side all end', async () => {
    // Without a pause after the collection, one of four such workers now and then never ended.
    for (let round = 0; round < 8; round++) {
      const workers = Array.from(
        { length: 4 },
        () => new Worker(new URL('./testing/release-heap-worker.ts', import.meta.url)),
      );
      await Promise.all(
        workers.map(async (worker) => {
          const exit = once(worker, 'exit');
          await once(worker, 'message');
          await exit;
        }),
      );
    }
  }, 120_000);
});
