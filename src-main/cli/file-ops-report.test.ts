import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetReport } from '../../src-shared/schemas/report.ts';
import { svcProcess as svc, tempDirs } from './testing/cli-test-kit.ts';

/**
 * `svc audit|fix|refine FILE --report PATH` and the dataset checks of a CLI
 * run (real processes on the builtin engine): duplicates injected into real
 * files are failed on `duplicates` naming their first occurrence by its
 * output position, the report groups them and counts checks and issue codes,
 * and TruthfulQA's answers all at option A make a finding.
 */

const datasets = join(import.meta.dirname, '..', '..', 'resources', 'datasets');
const tempDir = tempDirs('svc-cli-report-');
type Row = Record<string, unknown>;

const readJsonl = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

const checksOf = (sample: Row, block = 'audit') =>
  (sample[block] as { checks: Record<string, { passed: boolean; issues: Row[] }> }).checks;

/** GSM8K's first 60 rows with three copies: exact (row 5 at 20), shouted (12 at 40), reworded (30, at 31 then, at 62). */
function gsm8kWithCopies(dir: string): string {
  const rows = readJsonl(join(datasets, 'gsm8k_test_first300.jsonl')).slice(0, 60);
  const reworded = rows[30] as { question: string; answer: string };
  rows.splice(20, 0, { ...rows[5] });
  rows.splice(40, 0, { ...rows[12], question: String(rows[12]?.question).toUpperCase() });
  rows.push({
    ...reworded,
    question: reworded.question.replace(/\b(\w+)\b/, 'Yesterday'),
    answer: reworded.answer.replace(/#### (.*)$/, '#### 999'),
  });
  const path = join(dir, 'gsm8k.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

describe('svc audit FILE --report', () => {
  it('fails the copies on duplicates, groups them in the report and counts checks and codes', async () => {
    const dir = tempDir();
    const path = gsm8kWithCopies(dir);
    const reportPath = join(dir, 'report.json');
    const run = await svc(dir, 'audit', path, '--report', reportPath);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
    expect(out).toHaveLength(63);
    expect(checksOf(out[5]!).duplicates?.passed).toBe(true);
    expect(checksOf(out[20]!).duplicates?.issues).toEqual([
      expect.objectContaining({ code: 'exact_duplicate', ref: 5, similarity: 1 }),
    ]);
    expect(checksOf(out[40]!).duplicates?.issues[0]).toMatchObject({
      code: 'exact_duplicate',
      ref: 12, // row 12 comes before the copy inserted at 20, so it keeps its place
    });
    // The reworded copy names a different final answer: near duplicate and label conflict.
    const last = checksOf(out[62]!).duplicates?.issues.map((i) => i.code);
    expect(last).toEqual(['near_duplicate', 'label_conflict']);
    expect(checksOf(out[31]!).duplicates?.issues.map((i) => i.code)).toEqual(['label_conflict']);

    const report = DatasetReport.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    expect(report.samples).toBe(63);
    expect(report.duplicate_groups).toEqual([
      { kind: 'exact', rows: [5, 20], similarity: 1, label_conflict: false },
      { kind: 'exact', rows: [12, 40], similarity: 1, label_conflict: false },
      expect.objectContaining({ kind: 'near', rows: [31, 62], label_conflict: true }),
    ]);
    expect(report.checks.duplicates).toEqual({ failed: 4, warned: 0 });
    expect(report.issues).toMatchObject({
      exact_duplicate: { failed: 2, warned: 0 },
      near_duplicate: { failed: 1, warned: 0 },
      label_conflict: { failed: 2, warned: 0 },
    });
    expect(report.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['duplicates', 'label_conflicts']),
    );
    expect(report.statistics.lengths.question?.count).toBe(63);
    expect(report.statistics.languages.detected[0]).toEqual({ language: 'en', count: 63 });
    expect(run.stderr).toContain(
      'finding: 3 rows repeat an earlier one, in 3 groups (2 exact, 1 near)',
    );
    expect(run.stderr).toContain(`wrote the report to ${reportPath}`);
  });

  it("reports TruthfulQA's labelled answers all at option A", async () => {
    const dir = tempDir();
    const reportPath = join(dir, 'tq.json');
    const path = join(datasets, 'truthfulqa_mc_task_first200.jsonl');
    const run = await svc(dir, 'audit', path, '--report', reportPath);
    expect(run.code, run.stderr).toBe(0);
    const report = DatasetReport.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    expect(report.duplicate_groups).toEqual([]);
    const skew = report.findings.find((f) => f.code === 'answer_position_skew');
    expect(skew?.message).toMatch(/^option A is right in 200 of 200 items/);
    expect(report.statistics.answer_position?.counts[0]).toBe(200);
    expect(report.statistics.answer_position?.p_value).toBeLessThan(1e-6);
    expect(run.stderr).toContain('finding: option A is right in 200 of 200 items');
  });

  it('flags the copies in a fix and carries the verdict into refine', async () => {
    const dir = tempDir();
    const path = gsm8kWithCopies(dir);
    const [fix, refine] = await Promise.all([
      svc(dir, 'fix', path),
      svc(dir, 'refine', path, '--report', join(dir, 'r.json')),
    ]);
    expect(fix.code, fix.stderr).toBe(0);
    const fixed = fix.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    expect((fixed[20]?.fix as { flagged: boolean }).flagged).toBe(true);
    expect(refine.code, refine.stderr).toBe(0);
    const refined = refine.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    expect(checksOf(refined[20]!).duplicates?.passed).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ samples: 63 });
  });
});
