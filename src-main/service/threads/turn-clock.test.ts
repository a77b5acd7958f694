import { describe, expect, it } from 'vitest';
import { TurnClock } from './turn-clock.ts';

// Wide, so that a pause of a busy machine between two steps does not count as the thread's run.
const BUDGET_MS = 40;

/** Runs the thread for `ms` without letting the event loop turn. */
const hold = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('TurnClock', () => {
  it('lets the event loop turn once the thread has run its budget, and not before', async () => {
    const clock = new TurnClock(BUDGET_MS);
    let turned = 0;
    setImmediate(() => turned++);
    await clock.breathe();
    expect(turned).toBe(0);

    hold(BUDGET_MS + 1);
    await clock.breathe();
    expect(turned).toBe(1);

    // Counted again from the turn it let happen.
    setImmediate(() => turned++);
    await clock.breathe();
    expect(turned).toBe(1);
    hold(BUDGET_MS + 1);
    await clock.breathe();
    expect(turned).toBe(2);
  });
});
