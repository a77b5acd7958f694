import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import {
  chargeMicro,
  MICRO_PER_CENT,
  microToCostUsd,
  tokenCostMicro,
  usdToMicro,
} from './money.ts';

const rates = DEFAULT_SETTINGS.rates;

describe('money', () => {
  it('prices tokens at the rate of the model that spent them', () => {
    // 1M input tokens of svc-audit-1 at $0.50 and 1M output of svc-fix-1 at $4.00
    expect(
      tokenCostMicro(
        {
          'svc-audit-1': { input_tokens: 1_000_000, output_tokens: 0 },
          'svc-fix-1': { input_tokens: 0, output_tokens: 1_000_000 },
        },
        rates,
      ),
    ).toBe(usdToMicro(4.5));
  });

  it('rounds a fraction of a micro-USD up', () => {
    expect(tokenCostMicro({ 'svc-audit-1': { input_tokens: 1, output_tokens: 0 } }, rates)).toBe(1);
    expect(tokenCostMicro({ 'svc-audit-1': { input_tokens: 3, output_tokens: 0 } }, rates)).toBe(2);
  });

  it('charges at least one cent, rounded up to the cent', () => {
    expect(chargeMicro(0)).toBe(MICRO_PER_CENT);
    expect(chargeMicro(1)).toBe(MICRO_PER_CENT);
    expect(chargeMicro(10_000)).toBe(10_000);
    expect(chargeMicro(10_001)).toBe(20_000);
    expect(microToCostUsd(chargeMicro(123_456))).toBe(0.13);
  });

  it('property: a charge is whole cents, never below the cost, and less than a cent above it', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000_000 }), (cost) => {
        const charge = chargeMicro(cost);
        expect(charge % MICRO_PER_CENT).toBe(0);
        expect(charge).toBeGreaterThanOrEqual(Math.max(cost, MICRO_PER_CENT));
        expect(charge - Math.max(cost, MICRO_PER_CENT)).toBeLessThan(MICRO_PER_CENT);
      }),
    );
  });

  it('property: cost is additive over usage and exact in integers', () => {
    const usage = fc.record({
      input_tokens: fc.nat({ max: 1e9 }),
      output_tokens: fc.nat({ max: 1e9 }),
    });
    fc.assert(
      fc.property(usage, usage, (a, b) => {
        const both = tokenCostMicro({ 'svc-audit-1': a, 'svc-fix-1': b }, rates);
        const split =
          tokenCostMicro({ 'svc-audit-1': a }, rates) + tokenCostMicro({ 'svc-fix-1': b }, rates);
        expect(Number.isInteger(both)).toBe(true);
        // each part rounds up on its own, so the split sum may exceed by at most one micro-USD
        expect(split - both).toBeGreaterThanOrEqual(0);
        expect(split - both).toBeLessThanOrEqual(1);
      }),
    );
  });
});
