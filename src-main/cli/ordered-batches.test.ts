import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderedBatches } from './ordered-batches.ts';

/** A batch's work that ends when the test says so. */
function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const settle = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('OrderedBatches', () => {
  it('finishes batches in the order they were sent, whatever order their work ends in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 20 }),
        async (depth, delays) => {
          const batches = new OrderedBatches<number>(depth);
          const finished: number[] = [];
          let inFlight = 0;
          let most = 0;
          for (const [i, delay] of delays.entries()) {
            inFlight++;
            most = Math.max(most, inFlight);
            const work = new Promise<number>((done) => setTimeout(() => done(i), delay));
            await batches.send(work, async (value) => {
              finished.push(value);
              inFlight--;
              await settle();
            });
          }
          await batches.drain();
          expect(finished).toEqual(delays.map((_, i) => i));
          // Never more than `depth` waiting beside the one being sent.
          expect(most).toBeLessThanOrEqual(depth + 1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('goes on while batches are in flight, up to its depth', async () => {
    const batches = new OrderedBatches<string>(2);
    const works = [deferred<string>(), deferred<string>(), deferred<string>()];
    const finished: string[] = [];
    const finish = (value: string): Promise<void> => {
      finished.push(value);
      return Promise.resolve();
    };
    await batches.send(works[0]!.promise, finish);
    await batches.send(works[1]!.promise, finish);
    // A third is over the depth: its send waits for the first to finish.
    let third = false;
    const sending = batches.send(works[2]!.promise, finish).then(() => (third = true));
    await settle();
    expect(third).toBe(false);
    works[1]!.resolve('b');
    await settle();
    expect(finished).toEqual([]);
    works[0]!.resolve('a');
    await sending;
    // Only the oldest: two are left in flight.
    expect(finished).toEqual(['a']);
    works[2]!.resolve('c');
    await batches.drain();
    expect(finished).toEqual(['a', 'b', 'c']);
  });

  it('with depth 0 finishes each batch before the next is sent', async () => {
    const batches = new OrderedBatches<number>(0);
    const log: string[] = [];
    for (const i of [1, 2, 3]) {
      log.push(`send ${i}`);
      await batches.send(Promise.resolve(i), (value) => {
        log.push(`finish ${value}`);
        return Promise.resolve();
      });
    }
    expect(log).toEqual(['send 1', 'finish 1', 'send 2', 'finish 2', 'send 3', 'finish 3']);
  });

  it('throws a failure at its turn: the batches before it finished, none after it', async () => {
    const batches = new OrderedBatches<number>(3);
    const finished: number[] = [];
    const finish = (value: number): Promise<void> => {
      finished.push(value);
      return Promise.resolve();
    };
    const failing = deferred<number>();
    await batches.send(Promise.resolve(1), finish);
    await batches.send(failing.promise, finish);
    // Failing before its turn is no unhandled rejection (vitest fails the run on one).
    failing.reject(new Error('the engine failed'));
    await settle();
    await batches.send(Promise.resolve(3), finish);
    await expect(batches.drain()).rejects.toThrow('the engine failed');
    expect(finished).toEqual([1]);
  });
});
