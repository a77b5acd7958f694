import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditBlock, FixBlock } from '../../src-shared/schemas/blocks.ts';
import { readJsonl } from '../engine/testing/real-data.ts';
import { writeRows } from '../files/index.ts';

const repo = join(import.meta.dirname, '..', '..');
const datasets = join(repo, 'resources', 'datasets');
const work = mkdtempSync(join(tmpdir(), 'svc-cli-'));

function svc(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [join(repo, 'bin', 'svc.js'), ...args, '--data-dir', join(work, 'data')],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const jsonl = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('svc audit|fix|refine FILE', () => {
  it.each([
    'gsm8k_test_first300',
    'hellaswag_val_sample200',
    'truthfulqa_mc_task_first200',
    'commonsenseqa_validation_first200',
    'oasst_en_100_trees',
  ])('refines %s end to end, writing JSONL with every block', (name) => {
    const out = join(work, `${name}.refined.jsonl`);
    const run = svc('refine', join(datasets, `${name}.jsonl`), '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const rows = jsonl(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(readJsonl(`${name}.jsonl`).length);
    for (const row of rows) {
      AuditBlock.parse(row.audit);
      expect(row).toHaveProperty('reaudit');
      if (row.task_type !== 'text') FixBlock.parse(row.fix);
    }
    expect(run.stderr).toMatch(
      /^refine: \d+ samples, \d+ failed before, \d+ changed, \d+ flagged, \d+ failed after/m,
    );
    expect(run.stderr).toMatch(/tokens: [\d,]+ in, [\d,]+ out/);
    expect(run.stderr).toMatch(/usage: \$\d+\.\d{6} at the rates in force, not charged/);
  });

  it('writes results to stdout as JSONL only, the summary to stderr', () => {
    const run = svc('audit', join(datasets, 'gsm8k_test_first300.jsonl'), '--votes', '3');
    expect(run.code, run.stderr).toBe(0);
    const rows = jsonl(run.stdout);
    expect(rows).toHaveLength(300);
    expect((rows[0]?.audit as { votes: number }).votes).toBe(3);
    expect(run.stderr).toMatch(/audit: 300 samples, 300 passed, 0 failed/);
  });

  it('takes --out - for stdout, as svc merge does, and says what a .csv name gets', () => {
    // In a folder of its own: the file named "-" it used to write would land there.
    const cwd = mkdtempSync(join(tmpdir(), 'svc-cli-dash-'));
    const input = join(datasets, 'gsm8k_test_first300.jsonl');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [join(repo, 'bin', 'svc.js'), 'audit', input, ...args], {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, SVC_DATA_DIR: join(work, 'data') },
      });
    const dash = run('--out', '-');
    expect(dash.status, dash.stderr).toBe(0);
    expect(jsonl(dash.stdout)).toHaveLength(300);
    expect(readdirSync(cwd)).toEqual([]);
    const csv = run('--out', 'named.csv');
    expect(csv.status, csv.stderr).toBe(0);
    expect(csv.stderr).toMatch(/^note: named\.csv gets JSON Lines .* --write-back writes/m);
    expect(jsonl(readFileSync(join(cwd, 'named.csv'), 'utf8'))).toHaveLength(300);
  });

  it.each(['csv', 'parquet', 'json'] as const)('reads %s input', async (format) => {
    const input = join(work, `csqa.${format}`);
    await writeRows(input, format, readJsonl('commonsenseqa_validation_first200.jsonl'));
    const run = svc('fix', input);
    expect(run.code, run.stderr).toBe(0);
    const rows = jsonl(run.stdout);
    expect(rows).toHaveLength(200);
    expect(run.stderr).toMatch(/fix: 200 samples, \d+ changed/);
    // the five duplicate-choice items are repaired
    expect(
      rows.filter((r) =>
        (r.fix as { changes: { reason: string }[] }).changes.some((c) => c.reason === 'choices'),
      ),
    ).toHaveLength(5);
  });

  it('reports bad rows with their line numbers, skips them, and goes on', () => {
    const input = join(work, 'broken.jsonl');
    const good = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 4);
    writeFileSync(
      input,
      [good[0], '{not json', good[1], '{"question": 5, "answer": "x"}', good[2]].join('\n') + '\n',
    );
    const run = svc('audit', input);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonl(run.stdout)).toHaveLength(3);
    expect(run.stderr).toMatch(/row 2: .*\(skipped\)/);
    expect(run.stderr).toMatch(/row 4: .*question.*\(skipped\)/);
    expect(run.stderr).toMatch(/2 rows skipped/);
  });

  it('on a pipe, tells each skipped row once, with no bar redrawn around it', () => {
    const input = join(work, 'many-broken.jsonl');
    const good = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8').split('\n');
    const lines = good.slice(0, 50).flatMap((line) => [line, '{not json']);
    writeFileSync(input, lines.join('\n') + '\n');
    const run = svc('audit', input, '--out', join(work, 'many-broken.out.jsonl'));
    expect(run.code, run.stderr).toBe(0);
    const stderr = run.stderr.split('\n');
    expect(stderr.filter((line) => / \(skipped\)$/.test(line))).toHaveLength(50);
    // Each skip stopped and restarted the bar: two bar lines per skipped row, their rate `{rate}`.
    expect(run.stderr).not.toContain('{rate}');
    expect(stderr.filter((line) => line.startsWith('[')).length).toBeLessThan(10);
  });

  it('refuses a run in which no row is a sample, and writes nothing', () => {
    const out = join(work, 'none-mapped.jsonl');
    for (const extra of [[], ['--write-back']]) {
      const run = svc(
        'fix',
        join(datasets, 'gsm8k_test_first300.jsonl'),
        '--task-type',
        'text',
        '--map',
        'text=nosuchfield',
        '--out',
        out,
        ...extra,
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        'svc: none of the 300 rows of ' +
          join(datasets, 'gsm8k_test_first300.jsonl') +
          ' could be read as samples, so nothing was written (first: row 1: row does not fit the ' +
          'field mapping: "nosuchfield" (text) is missing): check --shape, --task-type and --map',
      );
      expect(readdirSync(work).filter((name) => name.startsWith('none-mapped'))).toEqual([]);
    }
  });

  it.each([
    ['empty.jsonl', ''],
    ['blank.jsonl', '\n\n'],
    ['header.csv', 'question,answer\n'],
  ])('refuses an input with no rows (%s), as the app does, and writes nothing', (name, text) => {
    const input = join(work, name);
    writeFileSync(input, text);
    const out = join(work, `none-${name}.jsonl`);
    const run = svc('refine', input, '--out', out);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`svc: ${input} has no rows, so nothing was written`);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['audit', 'x.jsonl', '--votes', '10'], /votes/],
    [['fix', 'x.jsonl', '--max-attempts', '0'], /max_attempts/],
    [['audit', 'x.jsonl', '--votes', '2.5'], /whole number/],
    [['fix', 'x.jsonl', '--votes', '3'], /--votes applies/],
    [['audit'], /expected one input file/],
  ])('refuses bad options before any work: %j', (args, message) => {
    const run = svc(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('says clearly when the input cannot be read', () => {
    const run = svc('audit', join(work, 'missing.jsonl'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/missing\.jsonl/);
  });

  it('honours --conventions', () => {
    const input = join(work, 'emails.jsonl');
    writeFileSync(input, `${JSON.stringify({ text: 'Write to maria.lopez@gmail.com today.' })}\n`);
    const strict = jsonl(svc('audit', input).stdout);
    const relaxed = jsonl(
      svc('audit', input, '--conventions', 'E-mail addresses are fine.').stdout,
    );
    expect((strict[0]?.audit as { passed: boolean }).passed).toBe(false);
    expect((relaxed[0]?.audit as { passed: boolean }).passed).toBe(true);
  });
});
