import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readParquetLayout, readRows, writeRows } from '../files/index.ts';
import { oasstPaths } from '../engine/shapes/oasst-paths.ts';
import { mappingFromFlags, type MapFlags } from './map-flags.ts';
import { svcProcess as svc, tempDirs } from './testing/cli-test-kit.ts';

/**
 * `svc audit|fix|refine FILE --task-type TYPE --map ROLE=FIELD ...` and
 * `--write-back` (real processes on the builtin engine, a temp data folder):
 * rows no shape matches are read through the mapping given, and a fix written
 * back lands in the field it came from, in the source's own form, with every
 * other row and field left byte for byte as it was.
 */

const repo = join(import.meta.dirname, '..', '..');
const ftfy = join(repo, 'resources', 'datasets', 'ftfy_mojibake_cases.jsonl');
const gsm8k = join(repo, 'resources', 'datasets', 'gsm8k_test_first300.jsonl');
const oasst = join(repo, 'resources', 'datasets', 'oasst_en_100_trees.jsonl');
const tempDir = tempDirs('svc-cli-mapping-');

type Row = Record<string, unknown>;

/** A file's lines: every one, the last (after the final newline) dropped when empty. */
function lines(path: string): string[] {
  const all = readFileSync(path, 'utf8').split('\n');
  if (all.at(-1) === '') all.pop();
  return all;
}

const jsonl = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** JSON as Python's json.dumps writes it: `", "` and `": "`, non-ASCII as `\uXXXX`. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const items = Object.entries(value).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`);
    return `{${items.join(', ')}}`;
  }
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Rows as a Python script writes JSON Lines, so a repaired line must keep that style. */
const writeJsonl = (path: string, rows: readonly unknown[]): void =>
  writeFileSync(path, rows.map(pythonJson).join('\n') + '\n');

/** The top-level keys whose values differ; the two rows must have the same keys in the same order. */
function changedKeys(before: Row, after: Row): string[] {
  expect(Object.keys(after)).toEqual(Object.keys(before));
  return Object.keys(before).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

async function rowsOf(path: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const result of readRows(path)) {
    if (!('value' in result)) throw new Error(`row ${result.row}: ${result.error}`);
    rows.push(result.value);
  }
  return rows;
}

const choiceChanges = (sample: Row): { path: string }[] =>
  (sample.fix as { changes: { path: string }[] }).changes;

describe('svc audit|fix FILE --task-type TYPE --map ROLE=FIELD', () => {
  it('names the fields of a file no shape matches and suggests a mapping', async () => {
    const dir = tempDir();
    const run = await svc(dir, 'audit', ftfy);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/match no known dataset shape/);
    const fields = /their fields: ([^.]*)\./.exec(run.stderr)?.[1]?.split(', ');
    expect(fields).toEqual(expect.arrayContaining(['label', 'original', 'fixed', 'expect']));
    expect(run.stderr).toContain('--task-type text --map text=original');
  });

  it('audits ftfy cases mapped as text, keeping the other fields as passthrough', async () => {
    const dir = tempDir();
    const source = jsonl(readFileSync(ftfy, 'utf8'));
    const run = await svc(dir, 'audit', ftfy, '--task-type', 'text', '--map', 'text=original');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/\(skipped\)/);
    const samples = jsonl(run.stdout);
    expect(samples).toHaveLength(111);
    expect(source).toHaveLength(111);
    for (const [i, sample] of samples.entries()) {
      expect(sample.task_type).toBe('text');
      expect(sample.text).toBe(source[i]?.original);
      expect(sample.label).toBe(source[i]?.label);
      expect(sample).not.toHaveProperty('original');
      expect(typeof (sample.audit as { passed: unknown }).passed).toBe('boolean');
    }
    expect(samples.filter((s) => !(s.audit as { passed: boolean }).passed).length).toBeGreaterThan(
      50,
    );
  });

  it('writes the ftfy repairs back into `original`, every other byte as it was', async () => {
    const dir = tempDir();
    const out = join(dir, 'x.jsonl');
    const mapping = ['--task-type', 'text', '--map', 'text=original'];
    // The samples the same fix makes: what each `original` must now hold.
    const [run, plain] = await Promise.all([
      svc(dir, 'fix', ftfy, ...mapping, '--write-back', '--out', out),
      svc(dir, 'fix', ftfy, ...mapping),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(/left as it was|\(skipped\)/);
    expect(plain.code, plain.stderr).toBe(0);
    const fixed = jsonl(plain.stdout);
    const before = lines(ftfy);
    const after = lines(out);
    expect(after).toHaveLength(before.length);
    expect(fixed).toHaveLength(before.length);
    let changed = 0;
    for (const [i, line] of after.entries()) {
      const source = JSON.parse(before[i] as string) as Row;
      const row = JSON.parse(line) as Row;
      const text = fixed[i]?.text;
      expect(row.original, `line ${i + 1}`).toBe(text);
      if (text === source.original) {
        expect(line, `line ${i + 1}`).toBe(before[i]);
      } else {
        changed++;
        expect(changedKeys(source, row), `line ${i + 1}`).toEqual(['original']);
      }
    }
    expect(changed).toBeGreaterThanOrEqual(50);
    expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
  });

  it('keeps the rows that do not map in a write-back to JSON, CSV and Parquet', async () => {
    const dir = tempDir();
    // Rows 2 and 5 have no `original` (the field the text comes from): read, but not samples.
    const source = jsonl(readFileSync(ftfy, 'utf8')).slice(0, 8);
    for (const i of [1, 4]) source[i] = { label: `no text ${i}`, fixed: null };
    const input = join(dir, 'cases.jsonl');
    writeFileSync(input, source.map((row) => JSON.stringify(row)).join('\n') + '\n');
    const mapping = ['--task-type', 'text', '--map', 'text=original'];
    for (const format of ['json', 'csv', 'parquet']) {
      const out = join(dir, `fixed.${format}`);
      const run = await svc(dir, 'fix', input, ...mapping, '--write-back', '--out', out);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/row 2: .*\(skipped\)/);
      expect(run.stderr).not.toMatch(/could not be written/);
      const back = await rowsOf(out);
      expect(back, format).toHaveLength(8);
      expect(back[1]?.label, format).toBe('no text 1');
      expect(back[4]?.label, format).toBe('no text 4');
      // (A CSV has the column in every row: empty in those two.)
      const texts = back.filter((row) => typeof row.original === 'string' && row.original !== '');
      expect(texts, format).toHaveLength(6);
    }
  });
});

describe('svc fix MMLU-style CSV --write-back', () => {
  const header = 'question,A,B,C,D,answer';
  const records = [
    'What is 2+2?,3,4,5,6,B',
    '"Which city, in France, is the capital?",Paris,Lyon,Nice,Lille,A',
    'Pick the largest planet.,Mars,Venus,Mars,Jupiter,D',
    '"Which word means coffee shop?",tea house,cafÃ©,bar,pub,B',
    '"Pick a drink, any drink","cafÃ©, au lait",tea,water,juice,A',
    'What color is the sky?,blue,green,red,yellow,A',
  ];
  const mapping = [
    '--task-type',
    'multiple_choice',
    '--map',
    'context=question',
    '--map',
    'choices=A,B,C,D',
    '--map',
    'answer=answer',
  ];
  const input = (dir: string): string => {
    const path = join(dir, 'mmlu.csv');
    writeFileSync(path, [header, ...records].join('\n') + '\n');
    return path;
  };

  it('keeps the header and unchanged records, re-points letters, repairs cells in place', async () => {
    const dir = tempDir();
    const out = join(dir, 'clean.csv');
    const run = await svc(dir, 'fix', input(dir), ...mapping, '--write-back', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/left as it was|\(skipped\)/);
    expect(run.stderr).toMatch(/fix: 6 samples, 3 changed/);
    expect(lines(out)).toEqual([
      header,
      records[0],
      records[1],
      // the duplicate Mars removed: the choices move up a column, the last is emptied,
      // and the answer (Jupiter) stays a letter, re-pointed from D to C
      'Pick the largest planet.,Mars,Venus,Jupiter,,C',
      // a repaired record keeps its other cells and their quoting
      '"Which word means coffee shop?",tea house,café,bar,pub,B',
      '"Pick a drink, any drink","café, au lait",tea,water,juice,A',
      records[5],
    ]);
  });

  it('writes the same rows as JSON Lines with the source columns', async () => {
    const dir = tempDir();
    const out = join(dir, 'clean.jsonl');
    const run = await svc(dir, 'fix', input(dir), ...mapping, '--write-back', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    const rows = jsonl(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(records.length);
    for (const row of rows) expect(Object.keys(row)).toEqual(header.split(','));
    expect(rows.map((row) => row.answer)).toEqual(['B', 'A', 'C', 'B', 'A', 'A']);
    expect(rows[2]).toMatchObject({ A: 'Mars', B: 'Venus', C: 'Jupiter', D: '' });
    expect(rows[3]).toMatchObject({ A: 'tea house', B: 'café', C: 'bar', D: 'pub' });
    expect(rows[4]).toMatchObject({ question: 'Pick a drink, any drink', A: 'café, au lait' });
    expect(rows[1]).toMatchObject({ question: 'Which city, in France, is the capital?' });
  });

  it('reads the letters as answer indexes in the default output', async () => {
    const dir = tempDir();
    const run = await svc(dir, 'fix', input(dir), ...mapping);
    expect(run.code, run.stderr).toBe(0);
    const samples = jsonl(run.stdout);
    expect(samples.map((s) => s.answer_index)).toEqual([1, 0, 2, 1, 0, 0]);
    expect(samples[2]?.choices).toEqual(['Mars', 'Venus', 'Jupiter']);
    expect(choiceChanges(samples[3] as Row).map((c) => c.path)).toEqual(['/choices/1']);
  });
});

describe('svc fix Dolly-style prompt from two fields', () => {
  it('writes each repair into the field it came from, and keeps a row it cannot split', async () => {
    const dir = tempDir();
    const path = join(dir, 'dolly.jsonl');
    const source = [
      {
        instruction: 'What is the capital of France?',
        context: '',
        response: 'The capital of France is Paris.',
        category: 'open_qa',
      },
      {
        instruction: 'Summarize the passage.',
        context: 'The cafÃ© on the corner serves crÃ¨me brÃ»lÃ©e every day of the week.',
        response: 'A corner coffee shop serves a dessert daily.',
        category: 'summarization',
      },
      {
        instruction: 'Name a primary color.',
        context: '',
        response: 'Red is a primary colour; itâ€™s used in many flags.',
        category: 'open_qa',
      },
      {
        instruction: 'Give a synonym for happy.',
        context: '',
        response: 'Joyful.',
        category: 'brainstorming',
      },
      // the blank lines the fix trims sit between instruction and context
      {
        instruction: 'Summarize this text.\n\n\n\n',
        context: 'The cafe opens at nine.',
        response: 'It opens at nine.',
        category: 'summarization',
      },
    ];
    writeJsonl(path, source);
    const out = join(dir, 'clean.jsonl');
    const run = await svc(
      dir,
      'fix',
      path,
      '--task-type',
      'conversation',
      '--map',
      'prompt=instruction,context',
      '--map',
      'response=response',
      '--write-back',
      '--out',
      out,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^row 5: the repair cannot be written back: .+ \(left as it was\)$/m,
    );
    expect(run.stderr).not.toMatch(/^row [1-4]:/m);
    const before = lines(path);
    const after = lines(out);
    expect(after).toHaveLength(before.length);
    for (const i of [0, 3, 4]) expect(after[i]).toBe(before[i]);
    // each repair in its own field, the line in its source's style
    expect(after[1]).toBe(
      pythonJson({
        ...source[1],
        context: 'The café on the corner serves crème brûlée every day of the week.',
      }),
    );
    expect(after[1]).toContain('caf\\u00e9');
    expect(after[2]).toBe(
      pythonJson({ ...source[2], response: 'Red is a primary colour; it’s used in many flags.' }),
    );
  });
});

describe('svc audit|refine a chat file with its own role and content keys', () => {
  const mapping = [
    '--task-type',
    'conversation',
    '--map',
    'messages=dialog',
    '--map',
    'role_key=speaker',
    '--map',
    'content_key=utterance',
    '--map',
    'roles=human:user,bot:assistant',
  ];
  const source = [
    {
      id: 'a',
      dialog: [
        { speaker: 'human', utterance: 'Hi, can you recommend a cafÃ© nearby?' },
        { speaker: 'bot', utterance: 'Sure, there is a nice one on Main Street.' },
      ],
    },
    {
      id: 'b',
      dialog: [
        { speaker: 'human', utterance: 'What is 3 times 4?' },
        { speaker: 'bot', utterance: '3 times 4 is 12.' },
      ],
    },
    {
      id: 'c',
      dialog: [
        { speaker: 'human', utterance: 'Tell me about Paris.' },
        {
          speaker: 'bot',
          utterance: 'Paris is the capital of France; itâ€™s known for the Eiffel Tower.',
        },
      ],
    },
  ];

  it('reads the speakers as user and assistant', async () => {
    const dir = tempDir();
    const path = join(dir, 'chat.jsonl');
    writeJsonl(path, source);
    const run = await svc(dir, 'audit', path, ...mapping);
    expect(run.code, run.stderr).toBe(0);
    const samples = jsonl(run.stdout);
    expect(samples).toHaveLength(3);
    for (const [i, sample] of samples.entries()) {
      expect(sample.messages).toEqual(
        source[i]?.dialog.map((turn) => ({
          role: turn.speaker === 'human' ? 'user' : 'assistant',
          content: turn.utterance,
        })),
      );
      expect(sample.id).toBe(source[i]?.id);
      expect((sample.audit as { checks: { roles: { passed: boolean } } }).checks.roles.passed).toBe(
        true,
      );
    }
  });

  it('writes repairs back under the file’s own speaker names', async () => {
    const dir = tempDir();
    const path = join(dir, 'chat.jsonl');
    writeJsonl(path, source);
    const out = join(dir, 'clean.jsonl');
    const run = await svc(dir, 'refine', path, ...mapping, '--write-back', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/left as it was/);
    const before = lines(path);
    const after = lines(out);
    expect(after).toHaveLength(3);
    expect(after[1]).toBe(before[1]);
    expect(after[0]).toBe(
      pythonJson({
        id: 'a',
        dialog: [
          { speaker: 'human', utterance: 'Hi, can you recommend a café nearby?' },
          source[0]?.dialog[1],
        ],
      }),
    );
    expect(after[2]).toBe(
      pythonJson({
        id: 'c',
        dialog: [
          source[2]?.dialog[0],
          {
            speaker: 'bot',
            utterance: 'Paris is the capital of France; it’s known for the Eiffel Tower.',
          },
        ],
      }),
    );
  });
});

describe('svc fix nested fields (dotted paths)', () => {
  it('repairs a wrong GSM8K-style final answer in meta.answer and nothing else', async () => {
    const dir = tempDir();
    const path = join(dir, 'nested.jsonl');
    const source = [
      {
        id: 1,
        meta: {
          question: 'Tom has 3 apples and buys 4 more. How many apples does he have?',
          answer: 'Tom starts with 3 apples.\nHe buys 4 more, so 3 + 4 = <<3+4=7>>7.\n#### 8',
          source: 'synthetic',
        },
      },
      {
        id: 2,
        meta: {
          question: 'A box holds 6 eggs. How many eggs are in 5 boxes?',
          answer: 'Each box holds 6 eggs.\n5 boxes hold 5 * 6 = <<5*6=30>>30 eggs.\n#### 30',
          source: 'synthetic',
        },
      },
      {
        id: 3,
        meta: {
          question: 'Sara reads 10 pages a day for 7 days. How many pages does she read?',
          answer:
            'She reads 10 pages a day.\nIn 7 days she reads 10 * 7 = <<10*7=70>>70 pages.\n#### 60',
          source: 'synthetic',
        },
      },
    ];
    writeJsonl(path, source);
    const mapping = [
      '--task-type',
      'question_answer',
      '--map',
      'question=meta.question',
      '--map',
      'answer=meta.answer',
    ];
    const audit = await svc(dir, 'audit', path, ...mapping);
    expect(audit.code, audit.stderr).toBe(0);
    const samples = jsonl(audit.stdout);
    expect(samples.map((s) => s.question)).toEqual(source.map((r) => r.meta.question));
    expect(samples.map((s) => s.answer)).toEqual(source.map((r) => r.meta.answer));
    expect(samples.map((s) => s.id)).toEqual([1, 2, 3]);

    const out = join(dir, 'clean.jsonl');
    const run = await svc(dir, 'fix', path, ...mapping, '--write-back', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/fix: 3 samples, 2 changed/);
    const before = lines(path);
    const after = lines(out);
    expect(after[1]).toBe(before[1]);
    for (const [i, final] of [
      [0, '7'],
      [2, '70'],
    ] as const) {
      const was = source[i] as (typeof source)[number];
      const answer = was.meta.answer.replace(/#### \d+$/, `#### ${final}`);
      expect(answer).not.toBe(was.meta.answer);
      expect(after[i]).toBe(pythonJson({ ...was, meta: { ...was.meta, answer } }));
    }
  });
});

describe('svc fix OpenAssistant trees --oasst-paths all', () => {
  it('runs a sample per path and writes each tree back once with the repairs of all its paths', async () => {
    const dir = tempDir();
    const out = join(dir, 'trees.jsonl');
    const [plain, run] = await Promise.all([
      svc(dir, 'fix', oasst, '--oasst-paths', 'all'),
      svc(dir, 'fix', oasst, '--oasst-paths', 'all', '--write-back', '--out', out),
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('rows read as oasst, every path');
    expect(run.stderr).not.toMatch(/left as it was/);
    const samples = jsonl(plain.stdout);
    expect(samples).toHaveLength(626);
    const before = lines(oasst);
    const after = lines(out);
    expect(after).toHaveLength(100);
    let next = 0;
    let changed = 0;
    for (const [i, line] of after.entries()) {
      const tree = JSON.parse(line) as Row;
      const paths = oasstPaths(tree);
      const fixed = samples.slice(next, next + paths.length);
      next += paths.length;
      // Each path of the written tree is the fixed sample of that path.
      paths.forEach((path, j) => {
        expect(path.sample.messages).toEqual((fixed[j] as { messages: unknown }).messages);
      });
      if (fixed.some((s) => (s.fix as { changes?: unknown[] } | undefined)?.changes?.length)) {
        changed++;
        expect(line).not.toBe(before[i]);
      } else expect(line).toBe(before[i]);
    }
    expect(next).toBe(626);
    expect(changed).toBeGreaterThan(10);
    // Two processes over 626 paths: ~10 s alone, past the default 20 s on two busy cores.
  }, 60_000);
});

describe('mapping flag errors', () => {
  const text = ['--task-type', 'text', '--map', 'text=original'];

  it('exit 2 with a message before any work', async () => {
    const dir = tempDir();
    const out = join(dir, 'clean.jsonl');
    const cases: [string[], RegExp][] = [
      [
        ['audit', ftfy, '--map', 'text=original'],
        /^svc: --map needs --task-type \(text, multiple/m,
      ],
      [
        ['audit', ftfy, '--task-type', 'question_answer', '--map', 'foo=bar'],
        /^svc: --map foo: question_answer has no role "foo" \(its roles: question, answer\)$/m,
      ],
      [['audit', ftfy, '--shape', 'nope'], /^svc: --shape must be one of .*gsm8k.*, got nope$/m],
      [
        ['audit', ftfy, '--shape', 'gsm8k', '--map', 'question=original'],
        /^svc: --shape and --task-type\/--map exclude each other$/m,
      ],
      [
        ['audit', ftfy, ...text, '--write-back', '--out', out],
        /^svc: --write-back applies to fix and refine/m,
      ],
      [['fix', ftfy, ...text, '--write-back'], /^svc: --write-back needs --out CLEAN/m],
      [
        ['fix', ftfy, '--task-type', 'question_answer', '--map', 'question=original'],
        /^svc: .*a question_answer mapping needs question \+ answer$/m,
      ],
      [['audit', ftfy, '--oasst-paths', 'every'], /^svc: --oasst-paths must be best or all/m],
      [
        ['audit', gsm8k, '--oasst-paths', 'all'],
        /^svc: every path applies to OpenAssistant message trees; these rows are read as gsm8k$/m,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => svc(dir, ...args)));
    for (const [i, run] of runs.entries()) {
      const [args, message] = cases[i] as [string[], RegExp];
      const label = args.slice(2).join(' ');
      expect(run.code, label).toBe(2);
      expect(run.stderr, label).toMatch(message);
      expect(run.stdout, label).toBe('');
    }
    expect(existsSync(out)).toBe(false);
  });

  const flags = (taskType: string, ...map: string[]): MapFlags => ({ 'task-type': taskType, map });
  it.each([
    [
      flags('essay', 'text=original'),
      /--task-type must be one of text, multiple_choice, question_answer, conversation, got essay/,
    ],
    [flags('text'), /--task-type needs --map ROLE=FIELD for its roles \(text\)/],
    [flags('text', 'text=original', 'text=label'), /--map text is given twice/],
    [flags('text', 'original'), /--map takes ROLE=FIELD, got "original"/],
    [
      flags('multiple_choice', 'style=qa', 'text=original'),
      /multiple_choice has no role "text" \(its roles: context, choices, answer, style\)/,
    ],
    [
      { ...flags('text', 'text=original'), 'answer-form': 'letter' },
      /--answer-form goes with --task-type multiple_choice/,
    ],
    [
      {
        ...flags('multiple_choice', 'context=q', 'choices=A,B', 'answer=a'),
        'answer-form': 'roman',
      },
      /--answer-form must be zero_based, one_based, letter or text, got roman/,
    ],
    [
      flags('conversation', 'messages=dialog', 'roles=human:usr'),
      /--map roles: "human:usr" maps to "usr", which is not system, user, assistant/,
    ],
    [
      flags('conversation', 'messages=dialog', 'roles=human'),
      /--map roles takes FROM:TO pairs, got "human"/,
    ],
    [
      flags('conversation', 'messages=m', 'prompt=p', 'response=r'),
      /from a messages array or from a prompt and a response, not both/,
    ],
    [
      flags('conversation', 'system=s'),
      /a conversation mapping needs messages, or prompt \+ response/,
    ],
  ])('mappingFromFlags refuses %j', (given, message) => {
    expect(() => mappingFromFlags(given)).toThrow(message);
  });

  it('mappingFromFlags reads lists, role maps and the answer form', () => {
    expect(
      mappingFromFlags({
        ...flags('multiple_choice', 'context=question', 'choices=A,B,C,D', 'answer=answer'),
        'answer-form': 'one-based',
      }),
    ).toEqual({
      task_type: 'multiple_choice',
      fields: { context: 'question', choices: ['A', 'B', 'C', 'D'], answer: 'answer' },
      answer_form: 'one_based',
    });
    expect(
      mappingFromFlags(flags('conversation', 'messages=dialog', 'roles=human:user,bot:assistant')),
    ).toEqual({
      task_type: 'conversation',
      fields: { messages: 'dialog', roles: { human: 'user', bot: 'assistant' } },
    });
    expect(mappingFromFlags({})).toBeUndefined();
  });
});

describe('svc fix Parquet --write-back', () => {
  it('keeps the column types and every value but the repaired ones', async () => {
    const dir = tempDir();
    const path = join(dir, 'pairs.parquet');
    const source = [
      {
        id: 1,
        prompt: 'What is the capital of France?',
        completion: 'The capital of France is Paris.',
      },
      {
        id: 2,
        prompt: 'Recommend a cafÃ© drink.',
        completion: 'Try a cafÃ© au lait; itâ€™s mild.',
      },
      { id: 3, prompt: 'Name a primary color.', completion: 'Red is a primary color.' },
    ];
    await writeRows(path, 'parquet', source);
    const out = join(dir, 'clean.parquet');
    const run = await svc(
      dir,
      'fix',
      path,
      '--task-type',
      'conversation',
      '--map',
      'prompt=prompt',
      '--map',
      'response=completion',
      '--write-back',
      '--out',
      out,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/left as it was/);
    const layout = await readParquetLayout(path);
    expect(layout.schema.find((e) => e.name === 'id')?.type).toBe('INT32');
    expect((await readParquetLayout(out)).schema).toEqual(layout.schema);
    expect(await rowsOf(path)).toEqual(source);
    expect(await rowsOf(out)).toEqual([
      source[0],
      { id: 2, prompt: 'Recommend a café drink.', completion: 'Try a café au lait; it’s mild.' },
      source[2],
    ]);
  });
});
