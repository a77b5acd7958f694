import { writeFileSync } from 'node:fs';
import { GOLDEN_FILE, goldenDatasets, goldenRecord } from './golden.ts';

/**
 * Writes the golden record of the current engine (run with node 24:
 * `node src-main/engine/testing/golden-write.ts`). Only when a change of
 * judgment is meant: a speed-up must pass golden.test.ts unchanged.
 */
const record: Record<string, string[]> = {};
for (const { name, samples } of goldenDatasets()) record[name] = await goldenRecord(samples);
writeFileSync(GOLDEN_FILE, `${JSON.stringify(record, null, 1)}\n`);
console.log(
  Object.entries(record)
    .map(([name, rows]) => `${name}: ${rows.length}`)
    .join('\n'),
);
