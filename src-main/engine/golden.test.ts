import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_FILE, goldenDatasets, goldenRecord } from './testing/golden.ts';

/**
 * Audit, fix and refine of the real datasets (and seeded defects in them)
 * give exactly the outcomes, issues, spans, patches and usage recorded in
 * golden-snapshot.json: speed-ups of the engine must not change a result.
 */
const snapshot = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Record<string, string[]>;

describe('the builtin engine against its golden record', () => {
  for (const { name, samples } of goldenDatasets()) {
    it(`${name}: ${samples.length} samples as recorded`, async () => {
      const rows = await goldenRecord(samples);
      const recorded = snapshot[name];
      expect(recorded, `${name} is in the record`).toBeDefined();
      const changed = rows.map((row, i) => (row === recorded?.[i] ? -1 : i)).filter((i) => i >= 0);
      expect(changed, `samples whose outcome changed in ${name}`).toEqual([]);
      expect(rows.length).toBe(recorded?.length);
    }, 120_000);
  }
});
