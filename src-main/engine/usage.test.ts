import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_MODELS, type EngineModel } from '../../src-shared/models.ts';
import { UsageMeter } from './usage.ts';

/**
 * A meter per slice, sent across threads as `byModel()` and merged in order
 * (`UsageMeter.of`), adds up to what one meter of every pass counts.
 */

const aPass = fc.record({
  model: fc.constantFrom<EngineModel>(...ENGINE_MODELS),
  input_tokens: fc.nat({ max: 10_000 }),
  output_tokens: fc.nat({ max: 10_000 }),
});

describe('UsageMeter.of', () => {
  it('gives meters that merge in order to the meter of all passes', () => {
    fc.assert(
      fc.property(
        fc.array(aPass, { maxLength: 40 }),
        fc.array(fc.nat({ max: 40 }), { maxLength: 5 }),
        (passes, cuts) => {
          const one = new UsageMeter();
          for (const { model, ...usage } of passes) one.add(model, usage);

          const bounds = [0, ...cuts.map((c) => Math.min(c, passes.length)).sort((a, b) => a - b)];
          bounds.push(passes.length);
          const merged = new UsageMeter();
          for (let i = 0; i + 1 < bounds.length; i++) {
            const part = new UsageMeter();
            for (const { model, ...usage } of passes.slice(bounds[i], bounds[i + 1])) {
              part.add(model, usage);
            }
            merged.merge(UsageMeter.of(structuredClone(part.byModel())));
          }
          expect(JSON.stringify(merged.byModel())).toBe(JSON.stringify(one.byModel()));
          expect(merged.total()).toEqual(one.total());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds a copy of the totals it is given', () => {
    const totals = { [ENGINE_MODELS[0]]: { input_tokens: 3, output_tokens: 4, passes: 1 } };
    const meter = UsageMeter.of(totals);
    meter.add(ENGINE_MODELS[0], { input_tokens: 1, output_tokens: 1 });
    expect(totals[ENGINE_MODELS[0]]).toEqual({ input_tokens: 3, output_tokens: 4, passes: 1 });
    expect(meter.byModel()[ENGINE_MODELS[0]]).toEqual({
      input_tokens: 4,
      output_tokens: 5,
      passes: 2,
    });
  });
});
