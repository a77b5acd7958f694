import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuditBlock, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { VerdictTally } from '../../engine/dataset/scan.ts';
import { PositionedTally } from './positioned-tally.ts';

const CHECKS = ['fluency', 'pii', 'duplicates', 'contamination'];
const CODES = ['a', 'b', 'c'];

const verdict: fc.Arbitrary<Verdict> = fc.record({
  passed: fc.constantFrom(true, false, null),
  score: fc.constant(1),
  issues: fc.array(
    fc.record({
      code: fc.constantFrom(...CODES),
      message: fc.constant('m'),
      severity: fc.constantFrom('error' as const, 'warning' as const),
    }),
    { maxLength: 2 },
  ),
});

/** An audit block with some of the checks, in an order of their own. */
const audit: fc.Arbitrary<AuditBlock | undefined> = fc.option(
  fc
    .uniqueArray(fc.constantFrom(...CHECKS), { maxLength: CHECKS.length })
    .chain((names) => fc.tuple(...names.map(() => verdict)).map((vs) => [names, vs] as const))
    .map(([names, vs]) => ({
      passed: true,
      model: 'm',
      votes: 1,
      checks: Object.fromEntries(names.map((name, i) => [name, vs[i] as Verdict])),
    })),
  { nil: undefined },
);

describe('PositionedTally', () => {
  it("adds up shards' tallies (rows every Nth) to the tally of one pass in row order", () => {
    fc.assert(
      fc.property(fc.array(audit, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (rows, n) => {
        const whole = new VerdictTally();
        for (const row of rows) whole.add(row);
        const shards = Array.from({ length: n }, () => new PositionedTally());
        rows.forEach((row, position) => shards[position % n]?.add(row, position));
        const merged = new PositionedTally();
        for (const shard of shards.reverse()) merged.absorb(shard.entries());
        expect(merged.parts()).toEqual(whole.parts());
      }),
    );
  });

  it("adds up slices' tallies, each counted from its first row, to the tally of one pass", () => {
    fc.assert(
      fc.property(
        fc.array(audit, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
        (rows, sizes) => {
          const whole = new VerdictTally();
          for (const row of rows) whole.add(row);
          const merged = new PositionedTally();
          for (let first = 0, k = 0; first < rows.length; k++) {
            const size = sizes[k % sizes.length] as number;
            const slice = new PositionedTally();
            rows.slice(first, first + size).forEach((row, i) => slice.add(row, i));
            merged.absorb(slice.entries(), first);
            first += size;
          }
          expect(merged.parts()).toEqual(whole.parts());
        },
      ),
    );
  });

  it('counts a changed row as its new verdict, in the order one pass counts it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(audit, audit, fc.boolean()), { maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        (rows, n) => {
          // Each row as written (`was`), and what it is after its change where it changes.
          const whole = new VerdictTally();
          for (const [was, now, changed] of rows) whole.add(changed ? now : was);
          const shards = Array.from({ length: n }, () => new PositionedTally());
          const changes = new PositionedTally();
          rows.forEach(([was, now, changed], position) => {
            shards[position % n]?.add(was, position);
            if (changed) changes.change(was, now, position);
          });
          const merged = new PositionedTally();
          merged.absorb(changes.entries());
          for (const shard of shards) merged.absorb(shard.entries());
          const expected = whole.parts();
          const got = merged.parts();
          // A name first counted in a row that changed may rank apart: the counts are exact.
          const sorted = (entries: typeof expected.checks) =>
            [...entries].sort(([a], [b]) => a.localeCompare(b));
          expect(got.samples).toBe(expected.samples);
          expect(sorted(got.checks)).toEqual(sorted(expected.checks));
          expect(sorted(got.issues)).toEqual(sorted(expected.issues));
        },
      ),
    );
  });
});
