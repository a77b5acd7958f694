import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTurns, nextTurnSize, TURN_MS } from './turns.ts';

const sizes = { first: 64, min: 8, max: 20_000 };

describe('nextTurnSize', () => {
  it('stays within its bounds, at most doubles, and at least halves after a turn over TURN_MS', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: sizes.min, max: sizes.max }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (size, took) => {
          const next = nextTurnSize(size, took, sizes);
          expect(next).toBeGreaterThanOrEqual(sizes.min);
          expect(next).toBeLessThanOrEqual(sizes.max);
          expect(next).toBeLessThanOrEqual(size * 2);
          if (took > TURN_MS) expect(next).toBeLessThanOrEqual(Math.max(sizes.min, size / 2));
        },
      ),
    );
  });

  it('settles where a turn takes about TURN_MS, whatever a row costs', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.5, noNaN: true }), (msPerRow) => {
        let size = sizes.first;
        for (let turn = 0; turn < 40; turn++) size = nextTurnSize(size, size * msPerRow, sizes);
        const took = size * msPerRow;
        // Unless a bound stops it (a row dearer than TURN_MS / min, or cheaper than / max).
        if (size > sizes.min && size < sizes.max) {
          expect(took).toBeGreaterThan(TURN_MS / 2);
          expect(took).toBeLessThanOrEqual(TURN_MS);
        }
      }),
    );
  });
});

describe('inTurns', () => {
  it('goes on until told nothing is left, with the event loop turning between two turns', async () => {
    const seen: string[] = [];
    let left = 1000;
    await inTurns((size) => {
      seen.push(`turn ${Math.min(size, left)}`);
      left -= Math.min(size, left);
      // Whatever waits for the loop runs before the next turn.
      setImmediate(() => seen.push('loop'));
      return left > 0;
    }, sizes);
    expect(left).toBe(0);
    expect(seen[0]).toBe('turn 64');
    const turns = seen.filter((s) => s.startsWith('turn'));
    expect(turns.length).toBeGreaterThan(1);
    // Every turn but the last is followed by the loop's own turn.
    for (let i = 0; i < seen.length - 1; i++) {
      if (seen[i]?.startsWith('turn')) expect(seen[i + 1]).toBe('loop');
    }
  });
});
