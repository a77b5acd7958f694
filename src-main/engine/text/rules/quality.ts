import { isSpaceCode, trimmedEnd } from '../chars.ts';
import { blankCode, CODE_FILLER, isIndentedCode } from '../code-spans.ts';
import { excerpt, plural, type RuleContext, type TextRule } from '../rule.ts';

/**
 * Repeats back to back, and the quality signals of C4 and FineWeb that make
 * sense for one sample.
 *
 * A sentence, line or paragraph said twice in a row is a generation loop or a
 * paste error at any length of text, so it is an error, and the repair (drop
 * the repeats, keep the first) is unambiguous. Code is never judged: fenced
 * and inline code are masked, and lines indented as code are skipped.
 */

/** A unit worth comparing: a few words of letters (not "No. No.", "---", "}" or "| 1 |"). */
const MIN_WORDS = 3;
const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;
/** The words of a unit, counted without an array of them (a word is never empty: the loop ends). */
function wordCount(unit: string): number {
  WORD.lastIndex = 0;
  let count = 0;
  while (WORD.test(unit)) count++;
  return count;
}

/** `[start, end)` ranges of a masked text to delete: the gap before a repeat and the repeat. */
type Range = [number, number];

/** Units of `text` separated by `separator`, with their offsets. */
function units(text: string, separator: RegExp): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let cursor = 0;
  for (const m of text.matchAll(separator)) {
    out.push({ start: cursor, end: m.index });
    cursor = m.index + m[0].length;
  }
  out.push({ start: cursor, end: text.length });
  return out;
}

const comparable = (unit: string): boolean =>
  !unit.includes(CODE_FILLER) && !isIndentedCode(unit) && wordCount(unit) >= MIN_WORDS;

/**
 * A row of an aligned formula (`2ab &= a, \\`): a system of equations may hold
 * the same equation twice, as a derivation writes it out.
 */
const FORMULA_ROW = /\\\\\s*$|&\s*[=<>≤≥]/;

/** A line worth comparing: a few characters with a letter or digit ("#### 460"; not "}" or "---"). */
const comparableLine = (line: string): boolean =>
  !line.includes(CODE_FILLER) &&
  !FORMULA_ROW.test(line) &&
  !isIndentedCode(line) &&
  line.trim().length >= 5 &&
  /[\p{L}\p{N}]/u.test(line);

/** Paragraphs (blank-line separated) or lines repeated right after themselves. */
function repeatedBlocks(
  masked: string,
  separator: RegExp,
  worth: (unit: string) => boolean,
): Range[] {
  const list = units(masked, separator);
  const ranges: Range[] = [];
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1];
    const b = list[i];
    if (!a || !b) continue;
    // Equal units have equal lengths once trimmed: most pairs are told apart without a slice.
    const aEnd = trimmedEnd(masked, a.start, a.end);
    const bEnd = trimmedEnd(masked, b.start, b.end);
    if (aEnd - a.start !== bEnd - b.start) continue;
    const first = masked.slice(a.start, aEnd);
    if (first.trim() === '' || masked.slice(b.start, bEnd) !== first) continue;
    if (!worth(first)) continue;
    ranges.push([a.end, b.end]);
  }
  return ranges;
}

/** A sentence end: end marks (and closing quotes or brackets) before a space or the line end. */
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?= |\n|$)/g;
/** A list marker before a line's first sentence is not part of it. */
const LIST_MARKER = /^(?:[-*+•]|\d+[.)])\s+/;
/** `[start, end)` is one or more plain spaces (a sentence follows another on its line). */
function onlySpaces(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) !== 32) return false;
  return true;
}

/** Runs of up to this many sentences are compared ("A. B. A. B." is a loop too). */
const MAX_RUN = 4;

/** A sentence: `[start, end)` of the masked text. */
interface Sentence {
  start: number;
  end: number;
}

/** Two sentences with the same text (told apart by length first: no slice for most pairs). */
function sameSentence(masked: string, a: Sentence | undefined, b: Sentence | undefined): boolean {
  if (!a || !b) return a === b;
  const length = a.end - a.start;
  if (length !== b.end - b.start) return false;
  for (let k = 0; k < length; k++) {
    if (masked.charCodeAt(a.start + k) !== masked.charCodeAt(b.start + k)) return false;
  }
  return true;
}

/** What sets a title, a label or a quoted term before the clause it introduces ("Apple Inc.: ", "\"Love is blind\" - "). */
const CLAUSE_MARK = /(?:[:\-–—]|["”'’])\s+$/;

/**
 * Whether sentence `b` says again the clause that ends sentence `a`, after a
 * title or a label ("Apple Inc.: Designing … Services. Designing … Services."):
 * the same repeat back to back, with the label kept once.
 */
function repeatsTail(masked: string, a: Sentence | undefined, b: Sentence | undefined): boolean {
  if (!a || !b) return false;
  const length = b.end - b.start;
  const tailStart = a.end - length;
  if (tailStart <= a.start) return false;
  for (let k = 0; k < length; k++) {
    if (masked.charCodeAt(tailStart + k) !== masked.charCodeAt(b.start + k)) return false;
  }
  return (
    CLAUSE_MARK.test(masked.slice(a.start, tailStart)) && comparable(masked.slice(b.start, b.end))
  );
}

/**
 * Runs of sentences on one line, separated by spaces only. Sentences are cut
 * at their end marks in one linear pass (a sentence regex backtracks on long
 * lines without end marks).
 */
function sentenceRuns(masked: string): Sentence[][] {
  const runs: Sentence[][] = [];
  let run: Sentence[] = [];
  let cursor = 0;
  for (const m of masked.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    // The piece since the last sentence: its last line break, and where its text starts after it.
    let lineStart = end;
    while (lineStart > cursor && masked.charCodeAt(lineStart - 1) !== 10) lineStart--;
    const newline = lineStart > cursor ? lineStart - 1 : -1;
    // The end marks are not spaces, so the piece holds a non-space after its last line break.
    let start = lineStart;
    while (isSpaceCode(masked.charCodeAt(start))) start++;
    const atLineStart = newline >= 0 || cursor === 0;
    if (newline >= 0 || (run.length > 0 && !onlySpaces(masked, cursor, start))) {
      runs.push(run);
      run = [];
    }
    if (atLineStart || run.length === 0) {
      const marker = LIST_MARKER.exec(masked.slice(start, end))?.[0] ?? '';
      start += marker.length;
    }
    if (start < end) run.push({ start, end });
    cursor = end;
  }
  runs.push(run);
  return runs;
}

/**
 * A step of a procedure: a short sentence that counts something ("Take 7
 * steps backward.", "Add 2 cups."). Said twice in a row it is done twice.
 */
const MAX_STEP_WORDS = 6;
const isCountedStep = (unit: string): boolean =>
  /\d/.test(unit) && wordCount(unit) <= MAX_STEP_WORDS;

/**
 * A line of such steps: four sentences or more, most of them short, two of
 * them different at least (one short sentence said again and again is a
 * loop, not a procedure; "Turn around. Take 4 steps." twice is a walk back).
 */
function isStepSequence(masked: string, run: readonly Sentence[]): boolean {
  if (run.length < 4) return false;
  const short = run
    .map((s) => masked.slice(s.start, s.end))
    .filter((sentence) => wordCount(sentence) <= MAX_STEP_WORDS);
  return short.length * 2 > run.length && new Set(short).size >= 2;
}

/** Sentences (or runs of up to four) repeated right after themselves on a line. */
function repeatedSentences(masked: string): Range[] {
  if (!/[.!?…]/.test(masked)) return [];
  const ranges: Range[] = [];
  for (const run of sentenceRuns(masked)) {
    // Whether the run is a procedure, asked only where a repeat is found (most runs have
    // none), and always of the run as it was read: before its first repeat is taken out.
    let stepSequence: boolean | undefined;
    const steps = (): boolean => (stepSequence ??= isStepSequence(masked, run));
    let i = 0;
    while (i < run.length) {
      let found = 0;
      for (let k = 1; k <= MAX_RUN && i + 2 * k <= run.length && found === 0; k++) {
        let same = true;
        for (let j = 0; j < k && same; j++) same = sameSentence(masked, run[i + j], run[i + k + j]);
        if (!same) continue;
        const unit = run
          .slice(i, i + k)
          .map((s) => masked.slice(s.start, s.end))
          .join(' ');
        if (comparable(unit) && !(steps() && isCountedStep(unit))) found = k;
      }
      if (found === 0 && repeatsTail(masked, run[i], run[i + 1]) && !steps()) found = 1;
      if (found === 0) {
        i++;
        continue;
      }
      const last = run[i + found - 1];
      const copyEnd = run[i + 2 * found - 1];
      const previous = ranges.at(-1);
      if (last && copyEnd) {
        if (previous?.[0] === last.end) previous[1] = copyEnd.end;
        else ranges.push([last.end, copyEnd.end]);
      }
      // The kept copy may repeat again: compare it with what follows the dropped one.
      steps();
      run.splice(i + found, found);
    }
  }
  return ranges;
}

const deleteRanges = (text: string, ranges: Range[]): string => {
  let out = '';
  let cursor = 0;
  for (const [start, end] of [...ranges].sort((x, y) => x[0] - y[0])) {
    if (start < cursor) continue;
    out += text.slice(cursor, start);
    cursor = end;
  }
  return out + text.slice(cursor);
};

type Level = 'paragraph' | 'line' | 'sentence';
const PARAGRAPH_BREAK = /\n[ \t]*\n\s*/g;
const LINE_BREAK = /\n/g;

function repeatsAt(level: Level, masked: string): Range[] {
  if (level === 'paragraph')
    return masked.includes('\n\n') ? repeatedBlocks(masked, PARAGRAPH_BREAK, comparableLine) : [];
  if (level === 'line')
    return masked.includes('\n') ? repeatedBlocks(masked, LINE_BREAK, comparableLine) : [];
  return repeatedSentences(masked);
}

const LEVELS: readonly Level[] = ['paragraph', 'line', 'sentence'];

/** The text without its back-to-back repeats (paragraphs, then lines, then sentences); code kept. */
export function dropBackToBackRepeats(text: string): string {
  if (text.includes(CODE_FILLER)) return text;
  let out = text;
  for (const level of LEVELS) {
    const ranges = repeatsAt(level, blankCode(out, CODE_FILLER));
    if (ranges.length > 0) out = deleteRanges(out, ranges);
  }
  return out;
}

/**
 * A cheap test: a repeat needs at least two units of three words, so a line
 * break or two sentence ends (code masked later only removes marks).
 */
const TWO_END_MARKS = /[.!?…][^]*[.!?…]/;
const mayRepeat = (text: string): boolean =>
  text.length >= 12 && (text.includes('\n') || TWO_END_MARKS.test(text));

export const backToBackRule: TextRule = {
  code: 'repeated_sentences',
  dimension: 'coherence',
  severity: 'error',
  describe: (f) => `${plural(f.count, 'repeat')} back to back, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!mayRepeat(text)) return null;
    const masked = blankCode(text, CODE_FILLER);
    for (const level of LEVELS) {
      const ranges = repeatsAt(level, masked);
      const first = ranges[0];
      if (!first) continue;
      const repeat = text.slice(first[0], first[1]).trim();
      const start = first[1] - repeat.length;
      return {
        count: ranges.length,
        example: `${level}: ${repeat.slice(0, 40)}${repeat.length > 40 ? '…' : ''}`,
        span: [start, first[1]],
      };
    }
    return null;
  },
  fix: dropBackToBackRepeats,
};

/**
 * C4's line filters and FineWeb's punctuation filter, on one sample: lines of
 * web boilerplate (navigation, cookie and legal notices, "enable JavaScript"),
 * most prose lines without an end mark (a scraped menu or word list), and
 * code braces in prose. C4 drops a page over one "{" and any mention of
 * JavaScript; that is far too eager for training data about code, so only the
 * boilerplate shapes themselves count, and braces only as leaked statements
 * (`{ color: red; }`) outside code.
 */
const BOILERPLATE_LINE = new RegExp(
  [
    String.raw`(?:please )?(?:enable|turn on) javascript\b`,
    String.raw`javascript (?:is|must be|seems to be) (?:disabled|turned off|enabled|required)`,
    String.raw`this (?:web)?site uses cookies`,
    String.raw`we use cookies`,
    String.raw`(?:accept|allow) (?:all )?cookies`,
    String.raw`(?:cookie policy|privacy policy|terms of (?:use|service)|terms (?:and|&) conditions)(?: ?[|·•,-] ?(?:cookie policy|privacy policy|terms of (?:use|service)|terms (?:and|&) conditions|contact us|about us|sitemap))*[.]?`,
    String.raw`(?:copyright ?)?(?:© ?|\(c\) ?)?(?:\d{4} ?)?(?:[\w.,&-]+ ){0,6}all rights reserved\.?`,
    String.raw`click here to (?:read more|subscribe|download|continue)`,
    String.raw`(?:subscribe|sign up) (?:to|for) (?:our|the) newsletter`,
    String.raw`(?:share (?:this|on) (?:facebook|twitter)|follow us on (?:facebook|twitter|instagram))`,
    String.raw`(?:you must be )?logged in to (?:post a )?comment`,
  ]
    .map((p) => `^[ \\t]*(?:${p})[ \\t]*$`)
    .join('|'),
  'im',
);
/** The words every boilerplate line holds: a cheap test before the anchored alternation. */
const BOILERPLATE_WORDS =
  /javascript|cookies|policy|terms|reserved|click here|newsletter|facebook|twitter|instagram|comment/i;
const LIST_OR_HEADING = /^\s*(?:[-*+•#>|]|\d+[.)]|[a-z][.)]\s|\p{Extended_Pictographic})/iu;
const END_MARK = /[.!?…:;"'”’)\]]$/;
/** A row of a table (Markdown's without outer pipes too: `Name | Field | Born`): cells, not prose. */
const TABLE_ROW = /\|[^|]*\|/;
/** A brace block of statements (`{ color: red; }`, `{ x = 1; }`), bounded so that the search stays linear. */
const BRACE_BLOCK = /\{([^{}]{1,300})\}/g;
const STATEMENTS = /[:=][^;]*;\s*$/;
const leakedBraces = (prose: string): number => {
  for (const m of prose.matchAll(BRACE_BLOCK)) if (STATEMENTS.test(m[1] ?? '')) return m.index;
  return -1;
};

/** At least `count` line breaks (counted only that far). */
function hasLineBreaks(text: string, count: number): boolean {
  let at = -1;
  for (let found = 0; found < count; found++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return false;
  }
  return true;
}

export const boilerplateRule: TextRule = {
  code: 'boilerplate',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `web boilerplate or scraped debris (${f.example ?? ''})`,
  detect: (text, context?: RuleContext) => {
    if (context && !context.freeText) return null;
    if (text.length < 12) return null;
    const prose = blankCode(text, CODE_FILLER);
    const line = BOILERPLATE_WORDS.test(prose) ? BOILERPLATE_LINE.exec(prose) : null;
    if (line) {
      const at = line.index + (line[0].length - line[0].trimStart().length);
      const found = line[0].trim();
      return { count: 1, example: `"${found.slice(0, 40)}"`, span: [at, at + found.length] };
    }
    const at = prose.includes('{') && prose.includes(';') ? leakedBraces(prose) : -1;
    if (at >= 0) {
      return { count: 1, example: `code braces in prose: ${excerpt(text, at)}` };
    }
    // FineWeb: under 12% of lines ending in punctuation. Lists, headings, table rows and code lines
    // do not count.
    if (!hasLineBreaks(prose, 7)) return null;
    const lines = prose
      .split('\n')
      .map((l) => l.trim())
      .filter(
        (l) => l !== '' && !LIST_OR_HEADING.test(l) && !TABLE_ROW.test(l) && !isIndentedCode(l),
      );
    if (lines.length < 8) return null;
    const ended = lines.filter((l) => END_MARK.test(l)).length;
    if (ended / lines.length >= 0.12) return null;
    const words = lines.reduce((n, l) => n + wordCount(l), 0);
    // Lines of prose length without end marks (a word list, a menu or a poem has shorter ones).
    if (words / lines.length >= 8) {
      return {
        count: 1,
        example: `${lines.length - ended} of ${lines.length} lines without an end mark`,
      };
    }
    return null;
  },
};
