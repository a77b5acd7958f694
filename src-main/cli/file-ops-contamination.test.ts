import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess as svc, tempDirs } from './testing/cli-test-kit.ts';

/**
 * The `contamination` check in CLI runs (real processes, builtin engine):
 * GSM8K test rows planted into another dataset fail `benchmark_overlap`
 * naming the item, `--against` finds the rows of the user's own eval file,
 * `--benchmarks none` turns the shipped sets off, and the GSM8K test file
 * audited as itself warns with a `benchmark_dataset` finding.
 */

const datasets = join(import.meta.dirname, '..', '..', 'resources', 'datasets');
const tempDir = tempDirs('svc-cli-contamination-');
type Row = Record<string, unknown>;
type Check = { passed: boolean; issues: Row[] };

const readJsonl = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
const writeJsonl = (path: string, rows: readonly Row[]): string => {
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
};
const contamination = (sample: Row): Check | undefined =>
  (sample.audit as { checks: Record<string, Check> }).checks.contamination;
const outputOf = (stdout: string): Row[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** CommonsenseQA's validation rows with GSM8K test rows 3 and 7 planted at 10 and 20 (as Q/A). */
function trainingWithPlants(dir: string): string {
  const rows = readJsonl(join(datasets, 'commonsenseqa_validation_first200.jsonl')).slice(0, 40);
  const gsm8k = readJsonl(join(datasets, 'gsm8k_test_first300.jsonl'));
  const asChat = (row: Row): Row => ({
    task_type: 'conversation',
    messages: [
      { role: 'user', content: String(row.question).toUpperCase() },
      { role: 'assistant', content: String(row.answer) },
    ],
  });
  const samples: Row[] = rows.map((row) => ({
    task_type: 'text',
    text: JSON.stringify(row.question),
  }));
  samples.splice(10, 0, asChat(gsm8k[3]!));
  samples.splice(20, 0, asChat(gsm8k[7]!));
  return writeJsonl(join(dir, 'train.jsonl'), samples);
}

describe('svc audit FILE: the contamination check', () => {
  it('fails rows holding a benchmark test item, naming it, and reports per benchmark', async () => {
    const dir = tempDir();
    const input = trainingWithPlants(dir);
    const report = join(dir, 'report.json');
    const run = await svc(dir, 'audit', input, '--report', report);
    expect(run.code, run.stderr).toBe(0);
    const out = outputOf(run.stdout);
    expect(contamination(out[0]!)).toEqual({ passed: true, score: 1, issues: [] });
    for (const [position, item] of [
      [10, 3],
      [20, 7],
    ] as const) {
      const check = contamination(out[position]!)!;
      expect(check.passed).toBe(false);
      expect(check.issues[0]).toMatchObject({
        code: 'benchmark_overlap',
        severity: 'error',
        benchmark: 'gsm8k/test',
        benchmark_item: item,
        similarity: 1,
      });
    }
    const findings = (JSON.parse(readFileSync(report, 'utf8')) as { findings: Row[] }).findings;
    expect(findings.find((f) => f.code === 'benchmark_contamination')).toMatchObject({
      rows: 2,
      benchmarks: [{ benchmark: 'gsm8k/test', kind: 'benchmark', rows: 2, items: 2 }],
    });
    expect(run.stderr).toMatch(/finding: 2 rows hold evaluation items: GSM8K test 2 rows/);

    const off = await svc(dir, 'audit', input, '--benchmarks', 'none');
    expect(off.code, off.stderr).toBe(0);
    expect(outputOf(off.stdout).map(contamination).filter(Boolean)).toEqual([]);
  });

  it('finds the rows of an eval file named by --against (split_overlap)', async () => {
    const dir = tempDir();
    const rows = readJsonl(join(datasets, 'commonsenseqa_validation_first200.jsonl'));
    const evalFile = writeJsonl(join(dir, 'heldout.jsonl'), rows.slice(100, 130));
    const train = writeJsonl(join(dir, 'train.jsonl'), [...rows.slice(0, 20), rows[117]!]);
    const run = await svc(dir, 'audit', train, '--against', evalFile, '--benchmarks', 'gsm8k');
    expect(run.code, run.stderr).toBe(0);
    const out = outputOf(run.stdout);
    expect(contamination(out[20]!)?.issues).toEqual([
      expect.objectContaining({
        code: 'split_overlap',
        benchmark: 'heldout.jsonl',
        benchmark_item: 17,
        severity: 'error',
      }),
    ]);
    expect(out.slice(0, 20).every((row) => contamination(row)?.passed === true)).toBe(true);
  });

  it('says the input’s shape, not an eval file’s, and reads an eval file its flags do not fit', async () => {
    const dir = tempDir();
    const csqa = readJsonl(join(datasets, 'commonsenseqa_validation_first200.jsonl'));
    const evalFile = writeJsonl(join(dir, 'heldout.jsonl'), csqa.slice(100, 130));
    const gsm8k = readJsonl(join(datasets, 'gsm8k_test_first300.jsonl')).slice(0, 20);
    const train = writeJsonl(join(dir, 'train.jsonl'), gsm8k);
    const run = await svc(dir, 'audit', train, '--against', evalFile, '--benchmarks', 'none');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('rows read as gsm8k');
    expect(run.stderr).not.toContain('rows read as commonsenseqa');

    // Texts mapped by --map, which no CommonsenseQA row fits: the eval file is read as itself.
    const texts = writeJsonl(join(dir, 'texts.jsonl'), [
      ...gsm8k.map((row) => ({ body: row.question })),
      { body: (csqa[117] as { question: string }).question },
    ]);
    const mapped = await svc(
      dir,
      'audit',
      texts,
      '--task-type',
      'text',
      '--map',
      'text=body',
      '--against',
      evalFile,
      '--benchmarks',
      'none',
    );
    expect(mapped.code, mapped.stderr).toBe(0);
    const out = outputOf(mapped.stdout);
    expect(contamination(out[20]!)?.issues).toEqual([
      expect.objectContaining({ code: 'split_overlap', benchmark_item: 17 }),
    ]);
  });

  it('warns on a benchmark audited as itself, with a benchmark_dataset finding', async () => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    const run = await svc(
      dir,
      'audit',
      join(datasets, 'gsm8k_test_first300.jsonl'),
      '--report',
      report,
    );
    expect(run.code, run.stderr).toBe(0);
    const out = outputOf(run.stdout);
    expect(out.every((row) => contamination(row)?.passed === true)).toBe(true);
    expect(contamination(out[0]!)?.issues[0]).toMatchObject({
      severity: 'warning',
      benchmark_item: 0,
    });
    const findings = (JSON.parse(readFileSync(report, 'utf8')) as { findings: Row[] }).findings;
    expect(findings.find((f) => f.code === 'benchmark_dataset')).toMatchObject({
      benchmark: 'gsm8k/test',
      rows: 300,
    });
  });

  it('refuses an unknown benchmark, a missing eval file and --benchmarks twice with a clear message', async () => {
    const dir = tempDir();
    const input = writeJsonl(join(dir, 'in.jsonl'), [{ task_type: 'text', text: 'Hello there.' }]);
    const unknown = await svc(dir, 'audit', input, '--benchmarks', 'gsm8k,mmlu');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--benchmarks unknown benchmark "mmlu"/);
    const missing = await svc(dir, 'audit', input, '--against', join(dir, 'nope.jsonl'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/nope\.jsonl/);
    const twice = await svc(dir, 'audit', input, '--benchmarks', 'gsm8k', '--benchmarks', 'math');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(
      '--benchmarks is given twice: give it once (several names as a comma list: gsm8k,math)',
    );
  });
});
