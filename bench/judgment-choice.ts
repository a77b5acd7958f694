import { UNITS } from '../src-main/engine/number-words.ts';
import { isDeepStrictEqual } from 'node:util';
import type {
  MultipleChoiceSample,
  QuestionAnswerSample,
  Sample,
} from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { repairMangledNumbers } from '../src-main/engine/checks/choice-numbers.ts';
import { prng } from '../src-main/engine/dataset/prng.ts';
import {
  commonsenseQa,
  gsm8k,
  hellaswag,
  truthfulQa,
} from '../src-main/engine/testing/real-data.ts';
import { withoutResults, type ResultSample } from '../src-main/service/runs/contract.ts';
import { runOperation } from '../src-main/service/runs/operation.ts';
import { formatRow } from './stats.ts';

/**
 * Judgment of the builtin engine on multiple choice and worked solutions:
 * defects injected (seeded, the same on every run) into real samples of the
 * datasets, found (recall: the family's issue code reported, error or
 * warning) and repaired exactly (the fix's output equals the sample before
 * the injection; "-" where no repair applies); then the false alarms on the
 * unmodified real datasets (samples whose audit fails, per dataset and per
 * failing check) and on clean variants that must stay clean (a number written
 * out as a word in the solution, a proper exponent).
 */

interface Injected {
  sample: Sample;
  /** What the fix should give back; undefined where no repair applies. */
  expected?: Sample;
}

interface Family {
  name: string;
  code: string;
  cases: Injected[];
  /** Repairs that exist as a function but are not wired into the fix (counted separately). */
  offline?: (sample: Sample) => Sample;
}

const SEED = 20_240_613;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const mc = (
  s: MultipleChoiceSample,
  over: Partial<MultipleChoiceSample>,
): MultipleChoiceSample => ({
  ...structuredClone(s),
  ...over,
});

/** A qa question cut at a word boundary between 40% and 85% of its words. */
function cutStems(items: MultipleChoiceSample[], random: () => number): Injected[] {
  return items.flatMap((s) => {
    const words = s.context.trim().split(/\s+/);
    if (words.length < 5) return [];
    const keep = Math.max(2, Math.floor(words.length * (0.4 + random() * 0.45)));
    const context = words
      .slice(0, keep)
      .join(' ')
      .replace(/[?.,;:!]+$/, '');
    return [{ sample: mc(s, { context }) }];
  });
}

/** A continuation item whose stem is a question (another dataset's, or "What happens next?"). */
function questionStems(
  items: MultipleChoiceSample[],
  questions: MultipleChoiceSample[],
  random: () => number,
): Injected[] {
  return items.map((s, i) => ({
    sample: mc(s, {
      context:
        i % 2 === 0
          ? pick(random, questions).context
          : `${s.context.trim().replace(/[.,]?\s*\w*$/, '.')} What does the person do next?`,
    }),
  }));
}

/**
 * A qa item whose stem is not a question: a continuation context of HellaSwag,
 * a statement of a GSM8K problem, the labelled answer standing alone, or its
 * question with a full stop for its "?".
 */
function statementStems(
  items: MultipleChoiceSample[],
  contexts: MultipleChoiceSample[],
  statements: string[],
  random: () => number,
): Injected[] {
  return items.map((s, i) => {
    const mode = i % 4;
    const asked = s.context.trim();
    const context =
      mode === 0
        ? pick(random, contexts).context
        : mode === 1
          ? pick(random, statements)
          : mode === 2 || !asked.endsWith('?')
            ? (s.choices[s.answer_index] ?? s.context)
            : `${asked.slice(0, -1).trimEnd()}.`;
    return { sample: mc(s, { context }) };
  });
}

/** One variant of a choice that differs only in case, spacing or punctuation. */
function nearVariant(choice: string, random: () => number): string {
  const variants = [
    (c: string) => c.toUpperCase(),
    (c: string) => c.charAt(0).toUpperCase() + c.slice(1),
    (c: string) => `${c}.`,
    (c: string) => `  ${c.replace(/ /g, '  ')} `,
    (c: string) => c.replace(/ /, ' - ').replace(/^(\w)/, (m) => m.toUpperCase()),
    (c: string) => `${c},`,
    (c: string) => `"${c}"`,
  ];
  const made = pick(random, variants)(choice);
  return made === choice ? `${choice}!` : made;
}

/** A near twin of a choice inserted after it; the fix must drop it and keep the label's text. */
function nearDuplicates(items: MultipleChoiceSample[], random: () => number): Injected[] {
  return items.flatMap((s) => {
    const j = Math.floor(random() * s.choices.length);
    const source = s.choices[j];
    if (source === undefined || /^[\d\s.,-]*$/.test(source)) return [];
    const at = j + 1 + Math.floor(random() * (s.choices.length - j));
    const choices = [...s.choices];
    choices.splice(at, 0, nearVariant(source, random));
    const answer = s.answer_index >= at ? s.answer_index + 1 : s.answer_index;
    return [{ sample: mc(s, { choices, answer_index: answer }), expected: s }];
  });
}

/** "All/None of the above" appended, and then a duplicate of a choice or of that option. */
function allNoneDuplicates(items: MultipleChoiceSample[], random: () => number): Injected[] {
  const wordings = [
    ['All of the above', 'all of these'],
    ['None of the above', 'None of these.'],
    ['All of the above', 'ALL OF THE ABOVE'],
    ['None of the above', 'none of the above options'],
  ] as const;
  return items.map((s, i) => {
    const [option, twin] = pick(random, wordings);
    const base = mc(s, { choices: [...s.choices, option] });
    const choices = [...base.choices];
    if (i % 2 === 0) choices.push(twin);
    else {
      const j = Math.floor(random() * s.choices.length);
      choices.splice(j + 1, 0, nearVariant(s.choices[j] ?? '', random));
      return {
        sample: mc(s, {
          choices,
          answer_index: s.answer_index > j ? s.answer_index + 1 : s.answer_index,
        }),
        expected: base,
      };
    }
    return { sample: mc(s, { choices }), expected: base };
  });
}

/** Options replaced by quantities in scientific notation; one (or all) lose the exponent's "^". */
function lostExponents(items: MultipleChoiceSample[], random: () => number): Injected[] {
  const units = ['meters', 'm/s', 'kg', 'J', 'C', 'years', 'km', ''];
  return items.map((s, i) => {
    const unit = pick(random, units);
    const sign = pick(random, [' x ', ' × ', ' x ']);
    const choices = s.choices.map(() => {
      const mantissa = (1 + Math.floor(random() * 90) / 10).toFixed(1);
      const exponent = (random() < 0.2 ? '-' : '') + String(1 + Math.floor(random() * 30));
      return `${mantissa}${sign}10^${exponent}${unit ? ` ${unit}` : ''}`;
    });
    const clean = mc(s, { choices });
    const mangle = (c: string): string => c.replace('^', '');
    const mangled =
      i % 2 === 0
        ? choices.map(mangle)
        : choices.map((c, k) => (k === s.answer_index ? mangle(c) : c));
    return { sample: mc(s, { choices: mangled }), expected: clean };
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Options replaced by numbers and ranges; a range "m-d" (m a month) turned into "d-Mon"/"Mon-d". */
function spreadsheetDates(items: MultipleChoiceSample[], random: () => number): Injected[] {
  return items.map((s, i) => {
    const choices = s.choices.map((_, k) => {
      if (i % 3 === 2 && k % 2 === 1) return String(30 + 7 * k + Math.floor(random() * 7));
      const low = Math.min(12, 1 + 2 * k + Math.floor(random() * 2));
      const high = low + 1 + Math.floor(random() * 17);
      return `${low}-${Math.min(high, 28)}`;
    });
    const target = s.answer_index;
    const range = /^(\d+)-(\d+)$/.exec(choices[target] ?? '');
    if (!range) choices[target] = `${1 + Math.floor(random() * 12)}-${14 + (i % 10)}`;
    const [, m = '1', d = '14'] = /^(\d+)-(\d+)$/.exec(choices[target] ?? '') ?? [];
    const month = MONTHS[Number(m) - 1] ?? 'Jan';
    const mangledChoices = [...choices];
    mangledChoices[target] = i % 2 === 0 ? `${d}-${month}` : `${month}-${d}`;
    return {
      sample: mc(s, { choices: mangledChoices, context: s.context }),
      expected: mc(s, { choices }),
    };
  });
}

/** The final `#### N` moved by +1, -1, +7 or +10 (the established family, for regressions). */
function alteredFinals(items: QuestionAnswerSample[], random: () => number): Injected[] {
  return items.map((s) => {
    const delta = pick(random, [1, -1, 7, 10]);
    const answer = s.answer.replace(
      /#### ([\d,]+)$/,
      (_m, n: string) => `#### ${Number(n.replaceAll(',', '')) + delta}`,
    );
    return { sample: { ...s, answer } };
  });
}

/**
 * Clean variants that must stay clean: the solution concludes in words ("So it
 * takes three days.") what its final line states in digits; and the final
 * stated in cents where the solution ends in dollars ("$0.75" -> "#### 75").
 */
/** Finals up to twelve, the ones a solution plausibly spells out. */
const WORDS = UNITS.slice(0, 13);

function numberWords(items: QuestionAnswerSample[]): Sample[] {
  return items.flatMap((s) => {
    const final = /#### (\d+)$/.exec(s.answer)?.[1];
    const word = WORDS[Number(final)];
    if (final === undefined || word === undefined) return [];
    const body = s.answer.slice(0, s.answer.lastIndexOf('####')).trimEnd();
    return [{ ...s, answer: `${body}\nSo the answer is ${word}.\n#### ${final}` }];
  });
}

function centsFinals(items: QuestionAnswerSample[]): Sample[] {
  return items.flatMap((s) => {
    const final = /#### (\d+)$/.exec(s.answer)?.[1];
    if (final === undefined || Number(final) >= 100) return [];
    const body = s.answer.slice(0, s.answer.lastIndexOf('####')).trimEnd();
    const dollars = (Number(final) / 100).toFixed(2);
    return [{ ...s, answer: `${body}\nThat is $${dollars}, in cents:\n#### ${final}` }];
  });
}

function stripped(sample: ResultSample): Sample {
  const copy: Record<string, unknown> = { ...sample };
  for (const key of ['audit', 'fix', 'reaudit']) Reflect.deleteProperty(copy, key);
  return withoutResults(copy as Sample);
}

async function auditAll(samples: Sample[]): Promise<ResultSample[]> {
  const result = await runOperation(
    { operation: 'audit', samples, config: { votes: 1 } },
    { backend: builtinBackend },
  );
  return result.data;
}

async function fixAll(samples: Sample[]): Promise<Sample[]> {
  const result = await runOperation(
    { operation: 'fix', samples, config: { max_attempts: 3 } },
    { backend: builtinBackend },
  );
  return result.data.map(stripped);
}

const codesOf = (sample: ResultSample): Set<string> =>
  new Set(Object.values(sample.audit?.checks ?? {}).flatMap((v) => v.issues.map((i) => i.code)));

const percent = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;

export async function benchJudgmentChoice(): Promise<void> {
  const random = prng(SEED);
  const csqa = commonsenseQa();
  const tqa = truthfulQa();
  const hs = hellaswag();
  const gsm = gsm8k();
  const qaItems = [...csqa, ...tqa];
  const allMc = [...csqa, ...tqa, ...hs];
  const families: Family[] = [
    { name: 'qa stem cut mid-clause', code: 'style_mismatch', cases: cutStems(qaItems, random) },
    {
      name: 'qa stem is a statement',
      code: 'style_mismatch',
      cases: statementStems(
        qaItems,
        hs,
        gsm.flatMap((q) => q.question.match(/(?<=^|\s)[A-Z][^.!?\n]*\./g) ?? []),
        random,
      ),
    },
    {
      name: 'continuation stem asks',
      code: 'style_mismatch',
      cases: questionStems(hs, qaItems, random),
    },
    {
      name: 'near-duplicate choice',
      code: 'duplicate_choice',
      cases: nearDuplicates(allMc, random),
    },
    {
      name: 'all/none + duplicate',
      code: 'duplicate_choice',
      cases: allNoneDuplicates(qaItems, random),
    },
    {
      name: 'lost exponent',
      code: 'lost_exponent',
      cases: lostExponents(qaItems, random),
      offline: (s) => repairChoices(s),
    },
    {
      name: 'spreadsheet date',
      code: 'spreadsheet_date',
      cases: spreadsheetDates(qaItems, random),
      offline: (s) => repairChoices(s),
    },
    { name: 'gsm8k final altered', code: 'answer_unsupported', cases: alteredFinals(gsm, random) },
  ];

  console.log(
    '\n## judgment: multiple choice and worked solutions (builtin engine; defects injected ' +
      `into real samples, seed ${SEED})`,
  );
  const widths = [26, 8, 10, 16, 18];
  console.log(
    formatRow(['family', 'samples', 'recall', 'exact repair', 'repair function alone'], widths),
  );
  for (const family of families) {
    const samples = family.cases.map((c) => c.sample);
    const audited = await auditAll(samples);
    const found = audited.filter((s) => codesOf(s).has(family.code)).length;
    const repairable = family.cases.filter((c) => c.expected !== undefined);
    let exact = '-';
    let offline = '-';
    if (repairable.length > 0) {
      // The target is the fix of the sample before the injection: repairs of what the real
      // sample already had (a double space, a dataset's own duplicate) are not the family's.
      const fixed = await fixAll(repairable.map((c) => c.sample));
      const targets = await fixAll(repairable.map((c) => c.expected as Sample));
      const right = fixed.filter((s, i) => isDeepStrictEqual(s, targets[i])).length;
      exact = `${right}/${repairable.length} ${percent(right, repairable.length)}`;
      if (family.offline) {
        const byFn = repairable.filter((c) =>
          isDeepStrictEqual(family.offline?.(c.sample), c.expected),
        ).length;
        // (the repair function alone, compared with the sample before the injection)
        offline = `${byFn}/${repairable.length} ${percent(byFn, repairable.length)}`;
      }
    }
    console.log(
      formatRow(
        [
          family.name,
          samples.length,
          `${found}/${samples.length} ${percent(found, samples.length)}`,
          exact,
          offline,
        ],
        widths,
      ),
    );
  }

  console.log('\nfalse alarms: samples whose audit fails (clean real data and clean variants)');
  const alarmWidths = [26, 8, 10, 50];
  console.log(
    formatRow(['dataset', 'samples', 'failing', 'failing checks (issue codes)'], alarmWidths),
  );
  const variants: [string, Sample[]][] = [
    ['gsm8k', gsm],
    ['commonsenseqa', csqa],
    ['hellaswag', hs],
    ['truthfulqa', tqa],
    ['gsm8k: concluded in words', numberWords(gsm)],
    ['gsm8k: final in cents', centsFinals(gsm)],
    ['proper exponents', lostExponents(qaItems, prng(SEED + 1)).map((c) => c.expected as Sample)],
    ['numeric ranges', spreadsheetDates(qaItems, prng(SEED + 2)).map((c) => c.expected as Sample)],
  ];
  for (const [name, samples] of variants) {
    const audited = await auditAll(samples);
    const failing = audited.filter((s) => s.audit?.passed === false);
    const byCheck = new Map<string, number>();
    for (const s of failing) {
      for (const [check, verdict] of Object.entries(s.audit?.checks ?? {})) {
        if (verdict.passed !== false) continue;
        const codes = [...new Set(verdict.issues.map((i) => i.code))].join(',');
        const key = `${check} (${codes})`;
        byCheck.set(key, (byCheck.get(key) ?? 0) + 1);
      }
    }
    const detail = [...byCheck].map(([k, n]) => `${k}: ${n}`).join('; ') || '-';
    console.log(
      formatRow(
        [
          name,
          samples.length,
          `${failing.length} ${percent(failing.length, samples.length)}`,
          detail,
        ],
        alarmWidths,
      ),
    );
  }
}

/** The repair function of choice-numbers.ts on every option (what the fix will do once wired). */
function repairChoices(sample: Sample): Sample {
  if (sample.task_type !== 'multiple_choice') return sample;
  const choices = sample.choices.map((_, i) =>
    repairMangledNumbers(i, sample.choices, sample.context),
  );
  return { ...sample, choices };
}
