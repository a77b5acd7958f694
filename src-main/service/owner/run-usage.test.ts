import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineModel } from '../../../src-shared/models.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import type { ModelUsage } from '../../engine/usage.ts';
import { openDatabase, type Db } from '../../store/db.ts';
import { tokenCostMicro } from '../billing/money.ts';
import { OwnerRunUsage } from './run-usage.ts';

type BatchUsage = Partial<Record<EngineModel, ModelUsage>>;
const MODELS: EngineModel[] = ['svc-audit-1', 'svc-fix-1'];
const rates = DEFAULT_SETTINGS.rates;

const usage = fc.record({
  input_tokens: fc.nat({ max: 5000 }),
  output_tokens: fc.nat({ max: 5000 }),
  passes: fc.nat({ max: 20 }),
});
const batchUsage: fc.Arbitrary<BatchUsage> = fc.record(
  { 'svc-audit-1': usage, 'svc-fix-1': usage },
  { requiredKeys: [] },
);

/** The batches' usage added up, `cuts` grouping consecutive batches into fewer. */
function regroup(batches: BatchUsage[], cuts: boolean[]): BatchUsage[] {
  const out: BatchUsage[] = [];
  for (const [i, batch] of batches.entries()) {
    const joined = i > 0 && cuts[i] === true ? out.at(-1) : undefined;
    if (!joined) {
      out.push({ ...batch });
      continue;
    }
    for (const model of MODELS) {
      const add = batch[model];
      if (!add) continue;
      const had = joined[model] ?? { input_tokens: 0, output_tokens: 0, passes: 0 };
      joined[model] = {
        input_tokens: had.input_tokens + add.input_tokens,
        output_tokens: had.output_tokens + add.output_tokens,
        passes: had.passes + add.passes,
      };
    }
  }
  return out;
}

function record(db: Db, runId: string, batches: BatchUsage[]): OwnerRunUsage {
  const run = new OwnerRunUsage(db, { id: runId, operation: 'audit', label: 'x', source: 'cli' });
  for (const batch of batches) run.recordBatch({ usage: batch, rates, input: [], output: [] });
  return run;
}

function costByModel(db: Db, runId: string): Record<string, number> {
  const rows = db
    .prepare(
      'SELECT model, SUM(cost_micro) AS cost FROM owner_usage WHERE run_id = ? GROUP BY model',
    )
    .all(runId) as { model: string; cost: number }[];
  return Object.fromEntries(rows.map((row) => [row.model, row.cost]));
}

describe("an owner's run records its usage", () => {
  it("each model's lines add up to its usage rounded once, however the run was batched", () => {
    fc.assert(
      fc.property(
        fc.array(batchUsage, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 12 }),
        (batches, cuts) => {
          const db = openDatabase(':memory:');
          try {
            const fine = record(db, 'fine', batches);
            const coarse = record(db, 'coarse', regroup(batches, cuts));
            const once = regroup(batches, [false, ...batches.slice(1).map(() => true)])[0] ?? {};
            const expected: Record<string, number> = {};
            for (const model of MODELS) {
              if (batches.some((batch) => batch[model])) {
                expected[model] = tokenCostMicro({ [model]: once[model] }, rates);
              }
            }
            expect(costByModel(db, 'fine')).toEqual(expected);
            expect(costByModel(db, 'coarse')).toEqual(expected);
            const total = Object.values(expected).reduce((sum, cost) => sum + cost, 0);
            expect(fine.costMicro).toBe(total);
            expect(coarse.costMicro).toBe(total);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a batch that failed to record adds nothing to the lines after it', () => {
    const db = openDatabase(':memory:');
    try {
      const odd = { input_tokens: 1, output_tokens: 0, passes: 1 };
      const run = new OwnerRunUsage(db, { id: 'r', operation: 'audit', label: 'x', source: 'cli' });
      expect(() =>
        run.recordBatch({ usage: { 'svc-audit-1': odd }, rates, input: [], output: [] }, () => {
          throw new Error('the caller failed to keep it');
        }),
      ).toThrow('the caller failed to keep it');
      expect(costByModel(db, 'r')).toEqual({});
      run.recordBatch({ usage: { 'svc-audit-1': odd }, rates, input: [], output: [] });
      // 500 nano-USD rounds up to 1 micro-USD: as if the failed batch had never been.
      expect(costByModel(db, 'r')).toEqual({ 'svc-audit-1': 1 });
      expect(run.costMicro).toBe(1);
    } finally {
      db.close();
    }
  });
});
