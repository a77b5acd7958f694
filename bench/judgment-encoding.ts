import { ftfyCases, readJsonl } from '../src-main/engine/testing/real-data.ts';
import { sharedJsonl } from '../src-main/engine/testing/shared-data.ts';
import type { TextRule } from '../src-main/engine/text/rule.ts';
import { fixEncoding } from '../src-main/engine/text/mojibake.ts';
import {
  type CodePageName,
  lossyOriginal,
  misdecode,
  misdecodeLossy,
} from '../src-main/engine/text/mojibake-inject.ts';
import { CLEAN_MULTILINGUAL } from '../src-main/engine/text/mojibake-samples.ts';
import {
  brokenUnicodeRule,
  controlCharsRule,
  mojibakeRule,
  replacementCharRule,
} from '../src-main/engine/text/rules/encoding.ts';
import { formatRow } from './stats.ts';

/**
 * The encoding check's judgment: ftfy's own test cases (in the wild and
 * negative), mojibake of each kind injected into real text (recall: flagged;
 * exact: repaired to the original), and false alarms on the clean real
 * datasets. Not timed: the engine bench measures speed.
 */

const ENCODING_RULES: readonly TextRule[] = [
  mojibakeRule,
  controlCharsRule,
  brokenUnicodeRule,
  replacementCharRule,
];

const nfc = (s: string): string => s.normalize('NFC');
const percent = (n: number, of: number): string =>
  of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`;

interface OasstNode {
  text: string;
  replies?: OasstNode[];
}

function oasstMessages(): string[] {
  const out: string[] = [];
  const walk = (node: OasstNode): void => {
    out.push(node.text);
    for (const reply of node.replies ?? []) walk(reply);
  };
  for (const tree of readJsonl<{ prompt: OasstNode }>('oasst_en_100_trees.jsonl')) {
    walk(tree.prompt);
  }
  return out;
}

const strings = (row: Record<string, unknown>): string[] =>
  Object.values(row).flatMap((value): string[] => {
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      return [...Object.keys(object), ...strings(object)];
    }
    return [];
  });

/** Every text field of each clean real dataset (ftfy's file is no clean dataset). */
function cleanDatasets(): [string, string[]][] {
  const local = (file: string): string[] => readJsonl(file).flatMap(strings);
  const shared = (file: string): string[] =>
    sharedJsonl(`datasets/${file}`).flatMap((row) => strings(row));
  const sets: [string, string[]][] = [
    ['gsm8k', local('gsm8k_test_first300.jsonl')],
    ['hellaswag', local('hellaswag_val_sample200.jsonl')],
    ['truthfulqa', local('truthfulqa_mc_task_first200.jsonl')],
    ['commonsenseqa', local('commonsenseqa_validation_first200.jsonl')],
    ['oasst (all messages)', oasstMessages()],
    ['alpaca original', shared('alpaca_original_300.jsonl')],
    ['alpaca cleaned', shared('alpaca_cleaned_300.jsonl')],
    ['multilingual (synthetic)', [...CLEAN_MULTILINGUAL]],
  ];
  return sets.filter(([, texts]) => texts.length > 0);
}

interface Kind {
  name: string;
  mangle: (text: string) => string;
  /** What an exact repair gives back (a lossy reading loses chars for good). */
  expected: (text: string) => string;
}

const same = (text: string): string => text;
const once = (page: CodePageName): Kind => ({
  name: `${page} once`,
  mangle: (t) => misdecode(t, page),
  expected: same,
});

const KINDS: readonly Kind[] = [
  once('latin1'),
  once('windows-1252'),
  {
    name: 'windows-1252 twice',
    mangle: (t) => misdecode(misdecode(t)),
    expected: same,
  },
  {
    name: 'latin1 then windows-1252',
    mangle: (t) => misdecode(misdecode(t, 'latin1')),
    expected: same,
  },
  {
    name: 'windows-1252 three times',
    mangle: (t) => misdecode(misdecode(misdecode(t))),
    expected: same,
  },
  {
    name: 'windows-1252 lossy (U+FFFD, NBSP lost)',
    mangle: (t) => misdecodeLossy(t),
    expected: (t) => lossyOriginal(t),
  },
  once('cp437'),
  once('macintosh'),
  once('windows-1251'),
  {
    name: 'windows-1251 twice',
    mangle: (t) => misdecode(misdecode(t, 'windows-1251'), 'windows-1251'),
    expected: same,
  },
  once('windows-1250'),
];

/** Real texts that hold non-ASCII (mojibake of pure ASCII is the text itself). */
function injectionBases(): [string, string[]][] {
  const nonAscii = (texts: string[]): string[] => [
    ...new Set(texts.filter((t) => /[^\p{ASCII}]/u.test(t))),
  ];
  const real = nonAscii(
    cleanDatasets().flatMap(([name, texts]) => (name.startsWith('multi') ? [] : texts)),
  );
  return [
    ['real datasets', real],
    ['multilingual', [...CLEAN_MULTILINGUAL]],
  ];
}

/**
 * BENCH_DEBUG=<kind name> (e.g. "macintosh once") prints each injected text
 * of that kind that is missed or not repaired exactly.
 */
export async function benchJudgmentEncoding(): Promise<void> {
  await Promise.resolve();
  console.log('\n## judgment: encoding (mojibake, control chars, U+FFFD, surrogates)');

  const { wild, negative } = ftfyCases();
  const fixed = wild.filter((c) => {
    const got = nfc(fixEncoding(c.original).text);
    return got === nfc(c['fixed-encoding'] ?? c.fixed) || got === nfc(c.fixed);
  }).length;
  const untouched = negative.filter(
    (c) =>
      fixEncoding(c.original).text === (c['fixed-encoding'] ?? c.fixed) &&
      mojibakeRule.detect(c.original) === null,
  ).length;
  const widths = [44, 10, 10, 10];
  console.log(formatRow(['ftfy cases', 'count', 'of', 'rate'], widths));
  console.log(
    formatRow(
      ['in the wild, repaired exactly', fixed, wild.length, percent(fixed, wild.length)],
      widths,
    ),
  );
  console.log(
    formatRow(
      [
        'negatives, untouched and not flagged',
        untouched,
        negative.length,
        percent(untouched, negative.length),
      ],
      widths,
    ),
  );

  console.log('');
  const injectWidths = [44, 16, 8, 10, 10];
  console.log(formatRow(['injected mojibake', 'into', 'texts', 'recall', 'exact'], injectWidths));
  for (const [base, texts] of injectionBases()) {
    for (const kind of KINDS) {
      let flagged = 0;
      let exact = 0;
      let count = 0;
      for (const text of texts) {
        const mangled = kind.mangle(text);
        if (mangled === text) continue;
        count++;
        const found = mojibakeRule.detect(mangled) !== null;
        const repaired = fixEncoding(mangled).text;
        if (found) flagged++;
        if (repaired === kind.expected(text)) exact++;
        else if (process.env.BENCH_DEBUG === kind.name) {
          // What is missed or repaired otherwise, around its first non-ASCII character.
          const at = Math.max(0, mangled.search(/[^\p{ASCII}]/u) - 30);
          console.log(
            `    ${found ? 'INEXACT' : 'MISSED'} ${JSON.stringify(mangled.slice(at, at + 80))}` +
              `\n      got  ${JSON.stringify(repaired.slice(at, at + 80))}`,
          );
        }
      }
      console.log(
        formatRow(
          [kind.name, base, count, percent(flagged, count), percent(exact, count)],
          injectWidths,
        ),
      );
    }
  }

  console.log('');
  const alarmWidths = [44, 10, 10, 10];
  console.log(
    formatRow(['false alarms (clean real data)', 'flagged', 'fields', 'rate'], alarmWidths),
  );
  for (const [name, texts] of cleanDatasets()) {
    const flagged = texts.filter((text) =>
      ENCODING_RULES.some((rule) => rule.detect(text) !== null),
    );
    console.log(
      formatRow(
        [name, flagged.length, texts.length, percent(flagged.length, texts.length)],
        alarmWidths,
      ),
    );
    if (process.env.BENCH_VERBOSE) {
      for (const text of flagged.slice(0, 5))
        console.log(`    ${JSON.stringify(text.slice(0, 100))}`);
    }
  }
}

if (import.meta.main) await benchJudgmentEncoding();
