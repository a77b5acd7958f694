import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDirs } from './testing/cli-test-kit.ts';

/**
 * The sliced pass (service/file-pass: every row's work on the engine's
 * workers) against the row-at-a-time pass (SVC_FILE_PASS=rows): the same
 * output, report, messages, usage and history, on the shipped datasets and
 * on a file made to catch the slicing out (a BOM, CRLF and blank lines, rows
 * that are not JSON, not objects or not samples, copies, no final newline,
 * lines longer than a slice), cut into slices of a few hundred bytes so that
 * every kind of boundary occurs.
 */

const repo = join(import.meta.dirname, '..', '..');
const datasets = join(repo, 'resources', 'datasets');
const dir = tempDirs('svc-file-pass-');

interface Run {
  code: number | null;
  stderr: string;
  output: string;
  report: string;
  usage: unknown[];
  history: unknown[];
}

function svc(
  data: string,
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_')),
  );
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(repo, 'bin', 'svc.js'), ...args, '--data-dir', data],
      { env: { ...clean, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** What a run recorded in its data folder: usage per model, and its history's samples in and out. */
function recorded(data: string): Pick<Run, 'usage' | 'history'> {
  const db = new Database(join(data, 'svc.sqlite'), { readonly: true });
  try {
    const usage = db
      .prepare(
        `SELECT model, SUM(samples) AS samples, SUM(input_tokens) AS input_tokens,
                SUM(output_tokens) AS output_tokens, SUM(passes) AS passes,
                SUM(cost_micro) AS cost_micro
           FROM owner_usage GROUP BY model ORDER BY model`,
      )
      .all();
    const rows = db.prepare('SELECT input_json, output_json FROM history ORDER BY id').all() as {
      input_json: string;
      output_json: string;
    }[];
    const history = [
      rows.flatMap((row) => JSON.parse(row.input_json) as unknown[]),
      rows.flatMap((row) => JSON.parse(row.output_json) as unknown[]),
    ];
    return { usage, history };
  } finally {
    db.close();
  }
}

/** One run in its own data folder, with what it wrote and recorded. */
async function run(
  env: Record<string, string>,
  operation: string,
  input: string,
  ...flags: string[]
): Promise<Run> {
  const root = dir();
  const out = join(root, 'out.jsonl');
  const reportPath = join(root, 'report.json');
  const data = join(root, 'data');
  const { code, stderr } = await svc(data, env, [
    operation,
    input,
    '--out',
    out,
    '--report',
    reportPath,
    ...flags,
  ]);
  if (code !== 0) return { code, stderr, output: '', report: '', usage: [], history: [] };
  return {
    code,
    stderr,
    output: readFileSync(out, 'utf8'),
    report: readFileSync(reportPath, 'utf8'),
    ...recorded(data),
  };
}

/** A shard's run in its own data folder: its part (the run's id masked), and what it recorded. */
async function shardRun(
  env: Record<string, string>,
  operation: string,
  input: string,
  shard: string,
  ...flags: string[]
): Promise<Omit<Run, 'output' | 'report'> & { part: string }> {
  const root = dir();
  const part = join(root, 'part.jsonl');
  const data = join(root, 'data');
  const { code, stderr } = await svc(data, env, [
    operation,
    input,
    '--shard',
    shard,
    '--out',
    part,
    ...flags,
  ]);
  if (code !== 0) return { code, stderr, part: '', usage: [], history: [] };
  return {
    code,
    stderr,
    part: readFileSync(part, 'utf8').replace(/cli_[0-9a-f]+/g, 'cli_…'),
    ...recorded(data),
  };
}

/** What stderr says, but for the timing and the run's id. */
const messages = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => !/samples \| |samples\/s|\|\s*\d+\/\d+|^\s*$|^\[/.test(line))
    .map((line) =>
      line
        .replace(/cli_[0-9a-f]+/g, 'cli_…')
        .replace(/\S*\/svc-file-pass-\w+/g, 'DIR')
        .replace(/\| [\d.]+ s,.*$/, ''),
    );

async function expectSamePass(
  operation: string,
  input: string,
  flags: string[] = [],
  sliced: Record<string, string> = {},
): Promise<void> {
  const [rows, slices] = await Promise.all([
    run({ SVC_FILE_PASS: 'rows', SVC_ENGINE_WORKERS: '2' }, operation, input, ...flags),
    run({ SVC_ENGINE_WORKERS: '2', ...sliced }, operation, input, ...flags),
  ]);
  expect(rows.code, rows.stderr).toBe(0);
  expect(slices.code, slices.stderr).toBe(0);
  expect(slices.output).toBe(rows.output);
  expect(slices.report).toBe(rows.report);
  expect(slices.usage).toEqual(rows.usage);
  expect(slices.history).toEqual(rows.history);
  expect(messages(slices.stderr)).toEqual(messages(rows.stderr));
}

/** A JSON Lines file with every kind of line the reader must handle, cut anywhere. */
function awkwardFile(path: string): void {
  const gsm = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 40);
  const lines = [
    ...gsm.slice(0, 5),
    '',
    '{"question": "broken',
    '[1, 2, 3]',
    gsm[3] as string, // an exact copy
    '{"question": 7, "answer": "#### 7"}',
    '   ',
    ...gsm.slice(5, 20),
    JSON.stringify({
      question: `${'A very long question that runs on. '.repeat(40)}How many?`,
      answer: 'It is 3.\n#### 3',
    }),
    ...gsm.slice(20, 40),
  ];
  // A BOM, CRLF line ends, and no newline at the end.
  writeFileSync(path, `\ufeff${lines.join('\r\n')}`);
}

// Each test runs two real `svc` processes at once over a whole dataset: minutes on a busy machine.
describe(
  'the sliced file pass gives what the row-at-a-time pass gives',
  { timeout: 240_000 },
  () => {
    it.each([
      ['audit', 'gsm8k_test_first300'],
      ['refine', 'hellaswag_val_sample200'],
      ['fix', 'truthfulqa_mc_task_first200'],
      ['audit', 'oasst_en_100_trees'],
    ])('%s of %s', async (operation, name) => {
      await expectSamePass(operation, join(datasets, `${name}.jsonl`));
    });

    it('cut into slices of 300 bytes: BOM, CRLF, blank and broken lines, copies, a long line', async () => {
      const input = join(dir(), 'awkward.jsonl');
      awkwardFile(input);
      await expectSamePass('refine', input, [], { SVC_FILE_PASS_SLICE_BYTES: '300' });
    });

    it('1,300 rows: the row-at-a-time pass sends batches ahead and writes them in order', async () => {
      const input = join(dir(), 'many.jsonl');
      const gsm = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { question: string; answer: string });
      // Three batches of 500 and part of a fourth, every row its own (numbered) question.
      const rows = Array.from({ length: 1300 }, (_, i) => {
        const row = gsm[i % gsm.length] as { question: string; answer: string };
        return JSON.stringify({ ...row, question: `${row.question} (case ${i + 1})` });
      });
      writeFileSync(input, `${rows.join('\n')}\n`);
      await expectSamePass('refine', input);
    });

    it('every path of OpenAssistant trees (a row is several samples), one worker', async () => {
      await expectSamePass(
        'audit',
        join(datasets, 'oasst_en_100_trees.jsonl'),
        ['--oasst-paths', 'all'],
        { SVC_ENGINE_WORKERS: '1', SVC_FILE_PASS_SLICE_BYTES: '20000' },
      );
    });

    it('a field mapping and an evaluation file to look for', async () => {
      const root = dir();
      const input = join(root, 'qa.jsonl');
      const gsm = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { question: string; answer: string });
      writeFileSync(
        input,
        gsm.map((row) => JSON.stringify({ prompt: row.question, reply: row.answer })).join('\n'),
      );
      const evalFile = join(root, 'eval.jsonl');
      writeFileSync(
        evalFile,
        gsm
          .slice(100, 110)
          .map((row) => JSON.stringify({ prompt: row.question, reply: row.answer }))
          .join('\n'),
      );
      await expectSamePass(
        'audit',
        input,
        [
          '--task-type',
          'question_answer',
          '--map',
          'question=prompt',
          '--map',
          'answer=reply',
          '--benchmarks',
          'none',
          '--against',
          evalFile,
        ],
        { SVC_FILE_PASS_SLICE_BYTES: '4096' },
      );
    });

    it.each([
      ['refine', 'awkward', ['--benchmarks', 'gsm8k'], '300'],
      ['audit', 'oasst', ['--oasst-paths', 'all'], '20000'],
    ])(
      "a shard's %s of the %s file on the workers: the row-at-a-time pass's part, usage and history",
      async (operation, file, flags, sliceBytes) => {
        const input =
          file === 'awkward'
            ? join(dir(), 'awkward.jsonl')
            : join(datasets, 'oasst_en_100_trees.jsonl');
        if (file === 'awkward') awkwardFile(input);
        for (const shard of ['0/3', '1/3', '2/3']) {
          const [rows, slices] = await Promise.all([
            shardRun(
              { SVC_FILE_PASS: 'rows', SVC_ENGINE_WORKERS: '2' },
              operation,
              input,
              shard,
              ...flags,
            ),
            shardRun(
              { SVC_ENGINE_WORKERS: '2', SVC_FILE_PASS_SLICE_BYTES: sliceBytes },
              operation,
              input,
              shard,
              ...flags,
            ),
          ]);
          expect(rows.code, rows.stderr).toBe(0);
          expect(slices.code, slices.stderr).toBe(0);
          expect(slices.part).toBe(rows.part);
          expect(slices.part.split('\n').length).toBeGreaterThan(5);
          expect(slices.usage).toEqual(rows.usage);
          expect(slices.history).toEqual(rows.history);
          expect(messages(slices.stderr)).toEqual(messages(rows.stderr));
        }
      },
    );

    it('fails as the row-at-a-time pass fails on a file that is not JSON Lines', async () => {
      const input = join(dir(), 'not.jsonl');
      writeFileSync(input, Array.from({ length: 12 }, (_, i) => `not json ${i}`).join('\n'));
      const [rows, slices] = await Promise.all([
        run({ SVC_FILE_PASS: 'rows' }, 'audit', input),
        run({}, 'audit', input),
      ]);
      expect(rows.code).not.toBe(0);
      expect(slices.code).toBe(rows.code);
      expect(slices.stderr).toBe(rows.stderr);
    });
  },
);
