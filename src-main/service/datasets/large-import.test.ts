import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetSummary } from '../../../src-shared/owner/datasets.ts';
import { openDatabase } from '../../store/db.ts';

const ROWS = 200_000;
/** Far below what the file takes as objects (~86 MB of JSON): holding it whole runs out. */
const HEAP_LIMIT_MB = 96;
const FILLER =
  'She counts them twice, writes the number down, and checks the total against the receipt. ';

async function writeGsm8kLike(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < rows; i++) {
    const [a, b] = [i % 97, i % 13];
    const row = {
      id: i,
      question: `Row ${i}. Tom has ${a} apples and buys ${b} more. ${FILLER}${FILLER}How many apples does he have now?`,
      answer: `${FILLER}He has ${a} + ${b} = <<${a}+${b}=${a + b}>>${a + b} apples.\n#### ${a + b}`,
    };
    if (!out.write(JSON.stringify(row) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe('a large import', () => {
  it(`streams ${ROWS.toLocaleString('en-US')} rows into SQLite with a ${HEAP_LIMIT_MB} MB heap`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-large-'));
    const file = join(dir, 'large.jsonl');
    await writeGsm8kLike(file, ROWS);
    expect(statSync(file).size).toBeGreaterThan(HEAP_LIMIT_MB * 1e6 * 0.8);
    const child = spawnSync(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_LIMIT_MB}`,
        join(import.meta.dirname, 'testing', 'import-file.ts'),
        file,
        join(dir, 'data'),
        'gsm8k',
      ],
      { encoding: 'utf8' },
    );
    expect(child.stderr).not.toMatch(/heap out of memory/);
    expect(child.status).toBe(0);
    const report = JSON.parse(child.stdout) as {
      summary: unknown;
      seconds: number;
      peak_heap_mb: number;
    };
    expect(DatasetSummary.parse(report.summary)).toMatchObject({ rows: ROWS, errors: 0 });
    console.log(
      `imported ${ROWS} rows (${(statSync(file).size / 1e6).toFixed(0)} MB) in ` +
        `${report.seconds.toFixed(1)} s under a ${HEAP_LIMIT_MB} MB heap limit ` +
        `(peak heap seen ${report.peak_heap_mb} MB)`,
    );
    const db = openDatabase(join(dir, 'data'));
    const last = db
      .prepare(
        'SELECT row_index, source_row, original_json FROM dataset_rows ORDER BY row_index DESC LIMIT 1',
      )
      .get() as { row_index: number; source_row: number; original_json: string };
    expect(last.row_index).toBe(ROWS - 1);
    expect(last.source_row).toBe(ROWS);
    expect((JSON.parse(last.original_json) as { id: number }).id).toBe(ROWS - 1);
    db.close();
  }, 240_000);
});
