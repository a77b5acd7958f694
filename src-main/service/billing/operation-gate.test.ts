import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { OperationGate } from './operation-gate.ts';

const later = <T>(value: T, ms: number) =>
  new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('OperationGate', () => {
  it('runs at most `concurrency` at once and the rest in arrival order', async () => {
    const gate = new OperationGate(2, 10);
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gate.run(async () => {
          peak = Math.max(peak, gate.running);
          await later(null, 10);
          order.push(i);
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.running).toBe(0);
  });

  it('refuses with 503 service_unavailable only when the queue is full', async () => {
    const gate = new OperationGate(1, 1);
    const first = gate.run(() => later(1, 20));
    expect(() => gate.assertRoom()).not.toThrow();
    const second = gate.run(() => later(2, 1));
    // what a streamed request checks before its stream opens
    expect(() => gate.assertRoom()).toThrow(
      expect.objectContaining({ code: 'service_unavailable' }),
    );
    await expect(gate.run(() => later(3, 1))).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(await Promise.all([first, second])).toEqual([1, 2]);
  });

  it('drops a waiting request whose client went away', async () => {
    const gate = new OperationGate(1, 5);
    const controller = new AbortController();
    const first = gate.run(() => later(1, 30));
    const waiting = gate.run(() => later(2, 1), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AppError);
    expect(gate.queued).toBe(0);
    await first;
    expect(gate.running).toBe(0);
  });
});
