import type { AuditBlock } from '../src-shared/schemas/blocks.ts';
import type { ConversationSample, Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { prng } from '../src-main/engine/dataset/prng.ts';
import { rowToSample, sampleToRow } from '../src-main/engine/shapes/index.ts';
import {
  commonsenseQa,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../src-main/engine/testing/real-data.ts';
import type { ResultSample } from '../src-main/service/runs/contract.ts';
import { runOperation } from '../src-main/service/runs/operation.ts';
import { auditAll } from './builtin-audit.ts';
import { sharedJsonl } from '../src-main/engine/testing/shared-data.ts';
import { formatRow } from './stats.ts';

/**
 * Judgment of the text rules on real data: defects of each family injected
 * (seeded) into real samples of ../shared/datasets, with the recall (the
 * sample is flagged by the right check) and the exact repair rate where a
 * repair applies; and the false
 * alarms of the real datasets as they are (share of samples failing, per
 * check). Alpaca is CC BY-NC: it is read from shared/ and never copied.
 * BENCH_DEBUG=<family name> prints the family's misses (the samples with the
 * defect no check flagged) and inexact repairs (the sample with the defect,
 * what the fix gave, what it makes of the host).
 *
 * Repaired exactly means: the fix of the sample with the defect equals the fix
 * of the host without it. Real hosts carry defects of their own (41 of 400
 * OASST and Alpaca replies end lines with spaces), which the fix rightly
 * repairs too; comparing with the host as it is would count that as a miss of
 * the injected defect. The stricter figure (the fix gives back the host as it
 * is) is printed beside it.
 */

type Row = Record<string, unknown>;

const alpacaRows = (file: string): Row[] => sharedJsonl<Row>(`datasets/${file}`);
const alpaca = (file: string): ConversationSample[] =>
  alpacaRows(file).map((row) => rowToSample(row, 'alpaca') as ConversationSample);

async function fixAll(samples: Sample[]): Promise<ResultSample[]> {
  const out: ResultSample[] = [];
  for (let i = 0; i < samples.length; i += 500) {
    const result = await runOperation(
      { operation: 'fix', samples: samples.slice(i, i + 500), config: { max_attempts: 3 } },
      { backend: builtinBackend },
    );
    out.push(...result.data);
  }
  return out;
}

const withoutFix = (sample: ResultSample): Sample => {
  const copy: Row = { ...sample };
  delete copy.fix;
  return copy as Sample;
};

/** Flagged: the check reports an issue (an error fails it, a warning lowers its score). */
const flaggedBy = (block: AuditBlock, checks: readonly string[]): boolean =>
  checks.some((check) => (block.checks[check]?.issues.length ?? 0) > 0);

const percent = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;

/** A real sample and the text field the defect goes into. */
interface Host {
  sample: Sample;
  get: (s: Sample) => string;
  set: (s: Sample, text: string) => Sample;
}

const qaAnswer = (sample: Sample): Host => ({
  sample,
  get: (s) => (s.task_type === 'question_answer' ? s.answer : ''),
  set: (s, text) => ({ ...s, answer: text }),
});
const lastTurn = (sample: ConversationSample): Host => ({
  sample,
  get: (s) => (s.task_type === 'conversation' ? (s.messages.at(-1)?.content ?? '') : ''),
  set: (s, text) => {
    const c = structuredClone(s) as ConversationSample;
    const last = c.messages.at(-1);
    if (last) last.content = text;
    return c;
  },
});
const asTextHost = (text: string): Host => ({
  sample: { task_type: 'text', text },
  get: (s) => (s.task_type === 'text' ? s.text : ''),
  set: (s, text) => ({ ...s, text }),
});

/** Clean hosts: real answers, replies and outputs long enough to carry prose. */
function hosts(): { name: string; list: Host[] }[] {
  const oasstReplies = oasst()
    .filter((c) => c.messages.at(-1)?.role === 'assistant')
    .map((c) => ({ ...c, turns: 'last' as const }));
  return [
    { name: 'gsm8k answers', list: gsm8k().map(qaAnswer) },
    { name: 'oasst replies', list: oasstReplies.map(lastTurn) },
    {
      name: 'alpaca outputs',
      list: alpaca('alpaca_cleaned_300.jsonl')
        .filter((c) => (c.messages.at(-1)?.content.length ?? 0) > 80)
        .map(lastTurn),
    },
    {
      name: 'hellaswag/csqa/tqa',
      list: [...hellaswag(), ...commonsenseQa(), ...truthfulQa()].map((s) => asTextHost(s.context)),
    },
  ];
}

/** One family of defects: where it applies, how it is injected, which check must flag it. */
interface Family {
  name: string;
  /** The check that must fail (on structured samples the text checks report as `formatting`). */
  checks: readonly string[];
  repairs: boolean;
  applies: (text: string) => boolean;
  inject: (text: string, random: () => number) => string;
}

const sentencesOf = (text: string): string[] =>
  text
    .match(/(?<=^|\s)[A-Z][^.!?\n]*[.!?](?=\s|$)/g)
    ?.filter((s) => s.trim().split(/\s+/).length >= 4) ?? [];

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)] as T;

const COHERENCE = ['coherence', 'formatting'] as const;

/** One word of a text (letters only, four or more) and where it is, or undefined. */
function someWord(t: string, random: () => number): { at: number; word: string } | undefined {
  const words = [...t.matchAll(/(?<![\p{L}\p{N}])\p{L}{4,}(?![\p{L}\p{N}])/gu)];
  if (words.length === 0) return undefined;
  const m = pick(words, random);
  return { at: m.index, word: m[0] };
}

/** Scraping leftovers: a word in a tag, an entity for a character, a `<br>` at a line end, a wrapper. */
const HTML_DEBRIS: ((t: string, random: () => number) => string)[] = [
  (t, random) => {
    const w = someWord(t, random);
    if (!w) return t;
    const [open, close] = pick(
      [
        ['<b>', '</b>'],
        ['<i>', '</i>'],
        ['<strong>', '</strong>'],
        ['<em>', '</em>'],
        ['<span class="highlight">', '</span>'],
        ['<a href="https://example.com/page">', '</a>'],
      ],
      random,
    );
    return t.slice(0, w.at) + open + w.word + close + t.slice(w.at + w.word.length);
  },
  (t, random) => {
    const marks: [RegExp, string][] = [
      [/'/, pick(['&#39;', '&apos;'], random)],
      [/"/, '&quot;'],
      [/’/, '&#8217;'],
      [/ /, '&nbsp;'],
    ];
    const usable = marks.filter(([re]) => re.test(t));
    if (usable.length === 0) return t;
    const [re, entity] = pick(usable, random);
    return t.replace(re, entity);
  },
  (t) => (/[^\n]\n[^\n]/.test(t) ? t.replace(/(?<=[^\n])\n(?=[^\n])/, '<br>\n') : `${t}<br>`),
  (t) => t.replace(/(?<=[^\n])\n(?=[^\n])/, '<br/>'),
  (t) => `<p>${t}</p>`,
  (t) => `<div>${t}</div>`,
];

const FAMILIES: Family[] = [
  {
    name: 'sentence repeated back to back',
    checks: COHERENCE,
    repairs: true,
    applies: (t) => sentencesOf(t).length > 0 && !t.includes('```'),
    inject: (t, random) => {
      const sentence = pick(sentencesOf(t), random);
      const times = 1 + Math.floor(random() * 3);
      const at = t.indexOf(sentence) + sentence.length;
      return t.slice(0, at) + ` ${sentence.trim()}`.repeat(times) + t.slice(at);
    },
  },
  {
    name: 'line repeated back to back',
    checks: COHERENCE,
    repairs: true,
    applies: (t) => t.includes('\n') && !t.includes('```'),
    inject: (t, random) => {
      const lines = t.split('\n');
      const candidates = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim().length > 0);
      const [line, i] = pick(candidates, random);
      lines.splice(i, 0, line);
      return lines.join('\n');
    },
  },
  {
    name: 'paragraph repeated back to back',
    checks: COHERENCE,
    repairs: true,
    applies: (t) => t.includes('\n\n') && !t.includes('```'),
    inject: (t, random) => {
      const paragraphs = t.split('\n\n');
      const i = Math.floor(random() * paragraphs.length);
      paragraphs.splice(i, 0, paragraphs[i] ?? '');
      return paragraphs.join('\n\n');
    },
  },
  {
    name: 'runs of spaces in lines',
    checks: ['formatting'],
    repairs: true,
    applies: (t) => !t.includes('```') && !/ {2}|\t/.test(t) && t.split(' ').length > 6,
    inject: (t, random) => {
      const gaps = [...t.matchAll(/(?<=[\p{L}\p{N},;:])( )(?=\S)/gu)].map((m) => m.index);
      const chosen = new Set([pick(gaps, random), pick(gaps, random)]);
      let out = '';
      let cursor = 0;
      for (const at of [...chosen].sort((a, b) => a - b)) {
        out += t.slice(cursor, at) + ' '.repeat(2 + Math.floor(random() * 3));
        cursor = at + 1;
      }
      return out + t.slice(cursor);
    },
  },
  {
    name: 'tabs and space runs in lines',
    checks: ['formatting'],
    repairs: true,
    applies: (t) => !t.includes('```') && !/ {2}|\t/.test(t) && t.split(' ').length > 6,
    inject: (t, random) => {
      const gaps = [...t.matchAll(/(?<=[\p{L}\p{N},;:.])( )(?=\S)/gu)].map((m) => m.index);
      const chosen = new Set([pick(gaps, random), pick(gaps, random), pick(gaps, random)]);
      let out = '';
      let cursor = 0;
      for (const at of [...chosen].sort((a, b) => a - b)) {
        out += t.slice(cursor, at) + pick(['\t', ' \t', '\t ', '\t\t', '   ', '  \t'], random);
        cursor = at + 1;
      }
      return out + t.slice(cursor);
    },
  },
  {
    name: 'html debris',
    checks: ['formatting'],
    repairs: true,
    applies: (t) => !t.includes('```') && !/[<>&]/.test(t) && t.split(' ').length > 6,
    inject: (t, random) => {
      const modes = 1 + Math.floor(random() * 3);
      let out = t;
      for (let k = 0; k < modes; k++) out = pick(HTML_DEBRIS, random)(out, random);
      return out;
    },
  },
  {
    name: 'trailing whitespace',
    checks: ['formatting'],
    repairs: true,
    applies: (t) => t.includes('\n') && !t.includes('```') && !/[ \t]\n/.test(t),
    inject: (t, random) =>
      t
        .split('\n')
        .map((line) =>
          line !== '' && random() < 0.5 ? line + pick([' ', '  ', '\t'], random) : line,
        )
        .join('\n')
        .replace(/^([^\n]*)(?=\n)/, (first) => (/\s$/.test(first) ? first : `${first} `)),
  },
  {
    name: 'text cut off',
    checks: [...COHERENCE, 'final_answer'],
    repairs: false,
    applies: (t) => t.length > 150 && !t.includes('```'),
    inject: (t, random) => {
      const words = [...t.matchAll(/\s(?:and|or|the|of|to|with|a|in|but|for)(?=\s)/g)];
      const cut = words.length > 0 && random() < 0.5 ? pick(words, random) : undefined;
      if (cut) return t.slice(0, cut.index + cut[0].length);
      const at = Math.floor(t.length * (0.4 + random() * 0.4));
      const space = t.lastIndexOf(' ', at);
      return t.slice(0, space > 0 ? space : at);
    },
  },
];

async function benchFamilies(): Promise<void> {
  console.log('\n## judgment of the text rules: injected defects (seeded) in real samples');
  console.log(
    'exact repair: the fix of the sample with the defect equals the fix of its host without it;\n' +
      '= host as is: the fix gives back the host unchanged (real hosts carry defects of their own)',
  );
  const widths = [34, 20, 8, 10, 14, 14];
  console.log(
    formatRow(['family', 'hosts', 'samples', 'recall', 'exact repair', '= host as is'], widths),
  );
  const all = hosts();
  // What the fix makes of each host as it is: the reference a repair of the injected defect meets.
  const hostFixed = new Map<Sample, string>();
  for (const { list } of all) {
    const fixed = await fixAll(list.map((h) => h.sample));
    fixed.forEach((f, i) => {
      const host = list[i];
      if (host) hostFixed.set(host.sample, JSON.stringify(withoutFix(f)));
    });
  }
  let repairs = 0;
  let exactRepairs = 0;
  for (const family of FAMILIES) {
    for (const { name, list } of all) {
      const random = prng(13);
      const clean: Sample[] = [];
      const dirty: Sample[] = [];
      for (const host of list) {
        const text = host.get(host.sample);
        if (!family.applies(text)) continue;
        const injected = family.inject(text, random);
        if (injected === text) continue;
        clean.push(host.sample);
        dirty.push(host.set(host.sample, injected));
      }
      if (dirty.length === 0) continue;
      const blocks = await auditAll(dirty);
      const found = blocks.filter((b) => flaggedBy(b, family.checks)).length;
      if (process.env.BENCH_DEBUG === family.name) {
        blocks.forEach((b, i) => {
          if (!flaggedBy(b, family.checks)) console.log('MISSED', JSON.stringify(dirty[i]));
        });
      }
      let exact = '-';
      let asIs = '-';
      if (family.repairs) {
        const fixed = (await fixAll(dirty)).map((f) => JSON.stringify(withoutFix(f)));
        const same = fixed.filter((f, i) => f === hostFixed.get(clean[i] as Sample)).length;
        const unchanged = fixed.filter((f, i) => f === JSON.stringify(clean[i])).length;
        repairs += dirty.length;
        exactRepairs += same;
        exact = percent(same, dirty.length);
        asIs = percent(unchanged, dirty.length);
        if (process.env.BENCH_DEBUG === family.name) {
          fixed.forEach((f, i) => {
            const want = hostFixed.get(clean[i] as Sample);
            if (f === want) return;
            console.log('MISS', JSON.stringify(dirty[i]), '\n  GOT', f, '\n  WANT', want);
          });
        }
      }
      console.log(
        formatRow(
          [family.name, name, dirty.length, percent(found, dirty.length), exact, asIs],
          widths,
        ),
      );
    }
  }
  console.log(
    `exact repair over every family and host: ${percent(exactRepairs, repairs)} of ${repairs}`,
  );
}

/** The real datasets as they are, as the app imports them. */
function realDatasets(): { name: string; samples: Sample[] }[] {
  return [
    { name: 'gsm8k', samples: gsm8k() },
    { name: 'oasst (all turns)', samples: oasst() },
    { name: 'alpaca cleaned', samples: alpaca('alpaca_cleaned_300.jsonl') },
    { name: 'alpaca original', samples: alpaca('alpaca_original_300.jsonl') },
    { name: 'commonsenseqa', samples: commonsenseQa() },
    { name: 'hellaswag', samples: hellaswag() },
    { name: 'truthfulqa', samples: truthfulQa() },
  ];
}

async function benchFalseAlarms(): Promise<void> {
  console.log('\n## false alarms: real datasets as they are (share of samples failing)');
  const widths = [20, 8, 8, 60];
  console.log(formatRow(['dataset', 'samples', 'failing', 'per check (issue codes)'], widths));
  for (const { name, samples } of realDatasets()) {
    if (samples.length === 0) continue;
    const blocks = await auditAll(samples);
    const perCheck = new Map<string, { n: number; codes: Set<string> }>();
    for (const block of blocks) {
      for (const [check, verdict] of Object.entries(block.checks)) {
        if (verdict.passed !== false) continue;
        const entry = perCheck.get(check) ?? { n: 0, codes: new Set<string>() };
        entry.n++;
        for (const issue of verdict.issues)
          if (issue.severity !== 'warning') entry.codes.add(issue.code);
        perCheck.set(check, entry);
      }
    }
    const failing = blocks.filter((b) => !b.passed).length;
    const detail = [...perCheck]
      .map(([check, e]) => `${check} ${percent(e.n, blocks.length)} (${[...e.codes].join(', ')})`)
      .join('; ');
    console.log(
      formatRow([name, samples.length, percent(failing, blocks.length), detail || '-'], widths),
    );
  }
}

/** Alpaca placeholders: injected into empty inputs, repaired when the row is emptied back. */
async function benchPlaceholders(): Promise<void> {
  const rows = alpacaRows('alpaca_cleaned_300.jsonl');
  if (rows.length === 0) return;
  console.log('\n## placeholders and non-answers (Alpaca rows, seeded)');
  const widths = [34, 8, 10, 14];
  console.log(formatRow(['family', 'samples', 'recall', 'exact repair'], widths));
  const random = prng(7);
  const PLACEHOLDERS = [
    'Noinput',
    'No input.',
    '"<noinput>"',
    '<noinput>',
    'N/A',
    'None',
    'No Input',
    'null',
    'n/a',
  ];
  const inputRows = rows.filter((r) => r.input === '');
  const dirtyRows = inputRows.map((r) => ({ ...r, input: pick(PLACEHOLDERS, random) }));
  const dirty = dirtyRows.map((r) => rowToSample(r, 'alpaca'));
  const blocks = await auditAll(dirty);
  const found = blocks.filter((b) => flaggedBy(b, ['coherence'])).length;
  const fixed = await fixAll(dirty);
  const exact = fixed.filter(
    (f, i) =>
      JSON.stringify(sampleToRow(withoutFix(f), dirtyRows[i] as Row, 'alpaca')) ===
      JSON.stringify(inputRows[i]),
  ).length;
  console.log(
    formatRow(
      [
        'placeholder input',
        dirty.length,
        percent(found, dirty.length),
        percent(exact, dirty.length),
      ],
      widths,
    ),
  );
  const outputs: [string, (r: Row) => string][] = [
    [
      'placeholder output',
      () =>
        pick(
          ['N/A', 'TODO', '[insert answer here]', 'Lorem ipsum dolor sit amet.', 'No output.'],
          random,
        ),
    ],
    ['empty output', () => pick(['', '   ', '\n'], random)],
    [
      'refusal output',
      () =>
        pick(
          [
            'As an AI language model, I cannot do that.',
            "I'm sorry, but as an AI, I am unable to help with this request.",
            'As an AI language model, I do not have personal opinions.',
          ],
          random,
        ),
    ],
    ['output restating the instruction', (r) => String(r.instruction)],
  ];
  for (const [label, make] of outputs) {
    const samples = rows.map((r) => rowToSample({ ...r, output: make(r) }, 'alpaca'));
    const audits = await auditAll(samples);
    const flagged = audits.filter((b) => flaggedBy(b, ['coherence', 'empty_turns'])).length;
    console.log(formatRow([label, samples.length, percent(flagged, samples.length), '-'], widths));
  }
}

export async function benchJudgmentText(): Promise<void> {
  await benchFamilies();
  await benchPlaceholders();
  await benchFalseAlarms();
}
