import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geometry, MAX_SCROLL_PX } from './scaled-rows.ts';

describe('the grid’s scaled row geometry', () => {
  it('is the plain layout below the cap', () => {
    const g = geometry(1000, 40, 400, 4000);
    expect(g.height).toBe(40_000);
    expect(g.top(100)).toBe(4000);
    expect(g.first).toBe(90);
    expect(g.last).toBe(120);
  });

  it('reaches the last of a million rows within a scroll area under the cap', () => {
    const viewport = 600;
    const g = geometry(1_000_000, 40, viewport, MAX_SCROLL_PX);
    expect(g.height).toBe(MAX_SCROLL_PX);
    expect(g.last).toBe(999_999);
    // the last row's bottom edge is the viewport's bottom edge
    expect(g.top(999_999) + 40).toBeCloseTo(MAX_SCROLL_PX, 6);
    const top = geometry(1_000_000, 40, viewport, 0);
    expect(top.first).toBe(0);
    expect(top.top(0)).toBe(0);
  });

  it('always draws the rows on screen, one row height apart, inside the scroll area', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 100, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (total, viewport, fraction) => {
          const g = geometry(total, 40, viewport, fraction * MAX_SCROLL_PX, 0);
          const scrollTop = Math.min(fraction * MAX_SCROLL_PX, Math.max(0, g.height - viewport));
          expect(g.height).toBeLessThanOrEqual(MAX_SCROLL_PX);
          for (let i = g.first; i <= g.last; i++) {
            expect(g.top(i + 1) - g.top(i)).toBeCloseTo(40, 6);
          }
          // the viewport [scrollTop, scrollTop + viewport) is covered by the rows drawn
          expect(g.top(g.first)).toBeLessThanOrEqual(scrollTop + 1e-6);
          if (total * 40 >= viewport) {
            expect(g.top(g.last) + 40).toBeGreaterThanOrEqual(scrollTop + viewport - 1e-6);
          }
        },
      ),
    );
  });

  it('scrolls a row into the middle of the viewport', () => {
    const g = geometry(1_000_000, 40, 600, 0);
    const at = geometry(1_000_000, 40, 600, g.scrollTopFor(700_000));
    const middle = at.top(700_000) - g.scrollTopFor(700_000);
    expect(middle).toBeGreaterThan(0);
    expect(middle + 40).toBeLessThan(600);
  });
});
