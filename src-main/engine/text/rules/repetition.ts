import { numberWords } from '../../number-words.ts';
import { isLetterCodePoint, isSpaceCode, trimmedEnd } from '../chars.ts';
import { blankCode } from '../code-spans.ts';
import { wordIds, type WordIds } from '../word-ids.ts';
import { stripTags } from './formatting.ts';
import { excerpt, type Finding, plural, type TextRule, spanOf, wordsOf } from '../rule.ts';
import { dropBackToBackRepeats } from './quality.ts';

/**
 * Repetition and truncation, after the Gopher (Rae et al. 2021), C4 and
 * FineWeb quality heuristics, with their published thresholds. They apply to
 * free text only and only above a minimum size, where they are meaningful.
 */

const words = wordsOf;

export const emptyRule: TextRule = {
  code: 'empty',
  dimension: 'coherence',
  severity: 'error',
  describe: () => 'the text is empty',
  detect: (text) => (text.trim() === '' ? { count: 1 } : null),
};

/**
 * Gopher: duplicate lines or paragraphs (over 30% of them, or over 20% of the
 * characters) mark boilerplate or loops. It is a warning, since plans and
 * tables repeat lines on purpose; the repair removes only what repeats right
 * after itself (a generation loop), as `repeated_sentences` does.
 */
function duplicateShare(parts: string[]): {
  count: number;
  share: number;
  chars: number;
  example: string;
} {
  const seen = new Set<string>();
  let count = 0;
  let chars = 0;
  let total = 0;
  let example = '';
  for (const part of parts) {
    total += part.length;
    if (seen.has(part)) {
      count++;
      chars += part.length;
      example ||= part.slice(0, 40);
    } else seen.add(part);
  }
  return { count, share: count / parts.length, chars: total ? chars / total : 0, example };
}

function repeatedParagraphs(text: string): Finding | null {
  if (!text.includes('\n\n')) return null;
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 20);
  if (paragraphs.length < 3) return null;
  const d = duplicateShare(paragraphs);
  return d.share > 0.3 || d.chars > 0.2 ? { count: d.count, example: d.example } : null;
}

/**
 * Whether two lines of 20 or more chars (trimmed) have the same length: two
 * equal lines must, so most texts are cleared without a string per line.
 */
function twoEqualLengths(text: string): boolean {
  const seen = new Set<number>();
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let from = start;
    while (from < end && isSpaceCode(text.charCodeAt(from))) from++;
    const length = trimmedEnd(text, from, end) - from;
    if (length >= 20) {
      if (seen.has(length)) return true;
      seen.add(length);
    }
    start = end + 1;
  }
  return false;
}

export const repeatedLinesRule: TextRule = {
  code: 'repeated_lines',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `${plural(f.count, 'repeated line')}, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!text.includes('\n')) return null;
    if (!twoEqualLengths(text)) return repeatedParagraphs(text);
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length >= 20);
    if (lines.length >= 4) {
      const d = duplicateShare(lines);
      if (d.share > 0.3 || d.chars > 0.2) return { count: d.count, example: d.example };
    }
    return repeatedParagraphs(text);
  },
  fix: dropBackToBackRepeats,
};

/** One word of two or more letters, three or more times, single-spaced ("the the the"; not a "T T T" table). */
const STUTTER = /\b(\p{L}[\p{L}']+)(?: \1\b){2,}/giu;

/** ASCII letters equal but for case, or a non-ASCII char (which case folding may equate: "ſ", "K"). */
const mayFoldEqual = (a: number, b: number): boolean =>
  a === b || a >= 128 || b >= 128 || ((a | 32) === (b | 32) && (a | 32) >= 97 && (a | 32) <= 122);

/**
 * A cheap necessary condition for STUTTER: in "X X X" the middle X lies
 * between two single spaces, and the same number of chars before the first
 * space and after the second may equal it. Unicode regexes with a
 * back-reference try every position of the text; this reads only its spaces.
 */
function mayStutter(text: string): boolean {
  let p = text.indexOf(' ');
  while (p >= 0) {
    const q = text.indexOf(' ', p + 1);
    if (q < 0) return false;
    const length = q - p - 1;
    if (length >= 2 && p - length >= 0 && q + length < text.length) {
      let same = true;
      for (let k = 0; k < length && same; k++) {
        const middle = text.charCodeAt(p + 1 + k);
        same =
          mayFoldEqual(text.charCodeAt(p - length + k), middle) &&
          mayFoldEqual(text.charCodeAt(q + 1 + k), middle);
      }
      if (same) return true;
    }
    p = q;
  }
  return false;
}

/**
 * A negation stacked in a formula ("not not not False", "not not (x)"): each
 * "not" flips the value, so the run is logic, not a stutter. Read from the
 * operand after the run: a truth value, a bracket, a one-letter variable or a digit.
 */
const NEGATION = /^not$/i;
const OPERAND_AFTER = /^ +(?:true\b|false\b|[([]|\p{L}\b|\d)/iu;
const isStackedNegation = (text: string, word: string, end: number): boolean =>
  NEGATION.test(word) && OPERAND_AFTER.test(text.slice(end, end + 8));

/** The stutters of a text, negations stacked in a formula left out. */
const stutters = (text: string): RegExpExecArray[] =>
  [...text.matchAll(STUTTER)].filter(
    (m) => !isStackedNegation(text, m[1] as string, m.index + m[0].length),
  );

/** The same word three or more times in a row ("the the the"): a generation loop or a paste error. */
export const repeatedWordsRule: TextRule = {
  code: 'repeated_words',
  dimension: 'coherence',
  severity: 'error',
  describe: (f) => `a word repeated in a row, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!mayStutter(text)) return null;
    const found = stutters(text);
    const first = found[0];
    if (!first) return null;
    const span = spanOf(text, first[0]);
    const example = first[0].slice(0, 40);
    return span ? { count: found.length, example, span } : { count: found.length, example };
  },
  fix: (text) =>
    text.replace(STUTTER, (run: string, word: string, at: number) =>
      isStackedNegation(text, word, at + run.length) ? run : word,
    ),
};

/**
 * Gopher: the most frequent 2/3/4-gram covering too much of the text
 * (0.20 / 0.18 / 0.16 of its word characters), and the words inside 5- to
 * 10-grams that occur more than once (0.15 down to 0.10). N-grams are counted
 * as numbers (word ids, then n-gram ids refined one word per round) rather
 * than joined strings: this rule sees every long text, and string keys made
 * it cost as much as the tokenizer.
 */
const TOP_LIMITS = [0.2, 0.18, 0.16] as const;
const DUPLICATE_LIMITS = [0.15, 0.14, 0.13, 0.12, 0.11, 0.1] as const;
/**
 * The share of words in 10-word phrases said exactly twice that a reply may
 * have: writing restates (Gopher's 0.10 was set for web pages, where a
 * repeated passage is boilerplate).
 */
const RESTATED_LIMIT = 0.3;

/**
 * Occurrences of each 32-bit n-gram hash, in an open-addressing table reused
 * across calls and rounds: `slots[i]` is the slot of position i's hash,
 * `tableCounts[slot]` how often it occurs (exactly the runs of equal values
 * that sorting the hashes would give).
 */
let tableKeys = new Int32Array(1024);
let tableCounts = new Int32Array(1024);
/** The round that last wrote a slot: a slot of an older round is empty (no clearing between rounds). */
let tableRounds = new Int32Array(1024);
let round = 0;

/**
 * The n-gram statistics from 32-bit hashes of the n-grams, extended one word
 * per round, counted in a hash table of the hashes (a collision can only
 * overstate a warning's share slightly). The most frequent n-gram is the
 * lowest hash among the most frequent ones, at its first position; it is
 * tracked as the counts grow, so a round is one pass over the text.
 */
function ngramRepetition(words: WordIds): string | null {
  const { ids, lengths, count: total } = words;
  let totalChars = 0;
  for (let i = 0; i < total; i++) totalChars += lengths[i] ?? 0;
  const slots = new Int32Array(total);
  let size = 16;
  while (size < total * 2) size *= 2;
  if (tableKeys.length < size) {
    tableKeys = new Int32Array(size);
    tableCounts = new Int32Array(size);
    tableRounds = new Int32Array(size);
    round = 0;
  }
  const mask = size - 1;
  // Each round's hashes are computed in place from the previous round's (position i only reads i).
  const next = ids.slice(0, total);
  for (let n = 2; n <= 10; n++) {
    const count = total - n + 1;
    if (count < 2) return null;
    if (++round === 0x7fffffff) {
      tableRounds.fill(0);
      round = 1;
    }
    let top = 0;
    let topHash = 0;
    for (let i = 0; i < count; i++) {
      // (a + b * c) | 0 with b * c taken modulo 2^32 first: the same int32, without a double product.
      const key =
        (Math.imul((next[i] ?? 0) ^ 0x9e3779b9, 0x85ebca6b) +
          Math.imul(ids[i + n - 1] ?? 0, 0x27d4eb2d)) |
        0;
      next[i] = key;
      let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
      while (tableRounds[slot] === round && tableKeys[slot] !== key) slot = (slot + 1) & mask;
      let c = 1;
      if (tableRounds[slot] === round) c = (tableCounts[slot] ?? 0) + 1;
      else {
        tableRounds[slot] = round;
        tableKeys[slot] = key;
      }
      tableCounts[slot] = c;
      slots[i] = slot;
      if (c > top || (c === top && key < topHash)) {
        top = c;
        topHash = key;
      }
    }
    // No repeated n-gram means no repeated longer one either.
    if (top < 2) return null;
    if (n <= 4) {
      let at = 0;
      while (next[at] !== topHash) at++;
      let gramChars = 0;
      for (let k = at; k < at + n; k++) gramChars += lengths[k] ?? 0;
      const share = (top * gramChars) / totalChars;
      if (share > (TOP_LIMITS[n - 2] ?? 1)) return gramText(words, at, n);
    }
    if (n >= 4) {
      // Words inside repeated n-grams; those of 4-grams bound those of 5-grams (and so on).
      let chars = 0;
      let coveredUntil = 0;
      for (let i = 0; i < total; i++) {
        if (i < count && (tableCounts[slots[i] ?? 0] ?? 0) >= 2) coveredUntil = i + n;
        if (i < coveredUntil) chars += lengths[i] ?? 0;
      }
      const share = chars / totalChars;
      // Structured answers (plans, outlines, lyrics) repeat short phrases on purpose:
      // a text is judged by both ends of the range, its 5-grams and its 10-grams.
      if (share <= (DUPLICATE_LIMITS[Math.max(0, n - 5)] ?? 1)) return null;
      if (n === 10) {
        // Every long phrase said just twice, over less than a third of the text: a conclusion
        // that restates the opening, parallel clauses of an essay. A loop says a phrase three
        // times or more; a reply pasted twice covers half of itself or more.
        if (top <= 2 && share <= RESTATED_LIMIT) return null;
        return `${Math.round(share * 100)}% of the words are in repeated 10-word phrases`;
      }
    }
  }
  return null;
}

/** The words of the n-gram at `at`, joined by spaces (as the word list would give them). */
function gramText(words: WordIds, at: number, n: number): string {
  const parts: string[] = [];
  for (let k = at; k < at + n; k++) {
    const start = words.starts[k] ?? 0;
    parts.push(words.lower.slice(start, start + (words.lengths[k] ?? 0)));
  }
  return parts.join(' ');
}

export const repeatedNgramsRule: TextRule = {
  code: 'repeated_ngrams',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `one phrase makes up much of the text: "${f.example ?? ''}"`,
  detect: (text) => {
    if (text.length < 500) return null;
    const list = wordIds(text.includes('`') ? blankCode(text) : text);
    if (list.count < 100) return null;
    const found = ngramRepetition(list);
    return found === null ? null : { count: 1, example: found };
  },
};

/** A link ends a text whole ("…see https://example.org/guide"): a URL has no end mark. */
const ENDS_ON_LINK = /\bhttps?:\/\/\S+$/;
const TERMINAL = /[.!?…"'”’)\]}>:;*`~\p{Extended_Pictographic}\p{Emoji_Presentation}]$/u;

/** Words a finished sentence does not end with: articles, conjunctions, possessives, prepositions. */
const DANGLING = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'but',
  'nor',
  'because',
  'although',
  'though',
  'whereas',
  'than',
  'that',
  'which',
  'whose',
  'if',
  'unless',
  'while',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'of',
  'to',
  'with',
  'from',
  'into',
  'onto',
  'by',
  'at',
  'in',
  'on',
  'for',
  'about',
  'between',
  'such',
  'is',
  'are',
  'was',
  'were',
  'will',
  'would',
  'can',
  'could',
  'should',
  'must',
  'very',
  'as',
  'including',
  'like',
]);
/** A question may end with a preposition or verb ("Who is it for", "What time is it"). */
const QUESTION_START =
  /^(?:who|what|which|where|when|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\b/i;
const FREE_AT_END = new Set([
  'of',
  'to',
  'with',
  'from',
  'at',
  'in',
  'on',
  'for',
  'about',
  'is',
  'are',
  'was',
  'were',
  'will',
  'would',
  'can',
  'could',
  'should',
  'like',
]);
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)]|[a-z][.)](?=\s))\s*/i;
const HEADING_OR_QUOTE = /^\s*[#>|]/;
const CODE_LINE =
  /[=;{}<>[\]]|^\s*(?:return|print|def|end|fi|done|import|from|select|var|let|const)\b/i;
/** "Here are 5 tips:" / "the ten steps below": a list that announces its length. */
const ANNOUNCED =
  /\b(\d{1,2}|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty) (?:[\p{L}-]+ ){0,3}?[\p{L}-]+s\b[^\n]*:\s*$/imu;

/** Unbalanced openers in the last paragraph: a quote or bracket left open. */
function openAtEnd(paragraph: string): string | null {
  const count = (c: string): number => paragraph.split(c).length - 1;
  if (count('(') > count(')')) return '(';
  if (count('[') > count(']')) return '[';
  // German, Czech and Polish quotes open low („) and close with “ or ”; English opens with “.
  const low = count('„');
  if (low > 0 ? low > count('“') + count('”') : count('“') > count('”')) return low > 0 ? '„' : '“';
  const straight = count('"');
  if (straight % 2 === 1 && !/\d"/.test(paragraph)) return '"';
  return null;
}

/** Why a (list-ending) text stops in the middle of its list, if it does. */
function cutList(lines: string[]): string | null {
  const last = lines.at(-1) ?? '';
  if (/^\s*(?:[-*+•]|\d+[.)])\s*$/.test(last)) return 'an empty list item';
  const items = lines.filter((l) => LIST_ITEM.test(l));
  const numbers = items
    .map((l) => /^\s*(\d+)[.)]/.exec(l)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
  const reached = numbers.at(-1) ?? 0;
  const firstItem = lines.findIndex((l) => LIST_ITEM.test(l));
  const lead = reached > 0 && firstItem > 0 ? ANNOUNCED.exec(lines[firstItem - 1] ?? '') : null;
  const promised = lead ? (numberWords(lead[1] ?? '')[0] ?? Number(lead[1])) : 0;
  if (promised > 0 && reached > 0 && reached < promised && promised <= 30) {
    return `item ${reached} of the ${promised} announced`;
  }
  if (!LIST_ITEM.test(last)) return null;
  const earlier = items.slice(0, -1);
  const body = last.replace(LIST_ITEM, '').trim();
  if (
    earlier.length >= 2 &&
    earlier.every((l) => TERMINAL.test(l.trimEnd())) &&
    !TERMINAL.test(body) &&
    words(body).length >= 3
  ) {
    return 'a list item cut off';
  }
  return null;
}

/**
 * C4/FineWeb: text that stops mid-sentence, in its forms: long prose without
 * an end mark, a dangling article, conjunction or preposition, a quote or
 * bracket left open, a list cut in the middle (an empty item, fewer items
 * than announced, the last item cut where the others end with a mark), an
 * unclosed code fence. Short answers (a word, a number, a short phrase),
 * questions, headings, code lines and texts that do not punctuate their lines
 * (poems, word lists) are not judged.
 */
export const truncatedRule: TextRule = {
  code: 'truncated',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `the text seems cut off: "${f.example ?? ''}"`,
  detect: (text, context) => {
    // Read as a person reads it: markup debris (`<div>...the</div>`) is not words, and
    // stripping it (the markup fix) must reveal no cut-off that was not there.
    const trimmed = (text.includes('<') ? stripTags(text) : text).trimEnd();
    if ((trimmed.match(/```/g)?.length ?? 0) % 2 === 1) {
      return { count: 1, example: 'an unclosed ``` code block' };
    }
    if (trimmed.length < 20 || trimmed.includes('```')) return null;
    const cut = (why: string) => ({
      count: 1,
      example: `${why}: ${excerpt(trimmed, trimmed.length, 30)}`,
    });
    const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
    const list = lines.length > 1 ? cutList(lines) : null;
    if (list) return cut(list);
    if (TERMINAL.test(trimmed) || ENDS_ON_LINK.test(trimmed)) return null;
    const lastLine = (lines.at(-1) ?? '').trim();
    if (HEADING_OR_QUOTE.test(lastLine) || CODE_LINE.test(lastLine)) return null;
    const body = lastLine.replace(LIST_ITEM, '');
    const lastWords = words(body);
    const all = words(trimmed);
    if (all.length < 5 || lastWords.length < 3) return null;
    const question = QUESTION_START.test(body);
    const lastWord = lastWords.at(-1) ?? '';
    if (
      DANGLING.has(lastWord) &&
      !(question && FREE_AT_END.has(lastWord)) &&
      /[\p{L}]$/u.test(body)
    ) {
      return cut(`ends on "${lastWord}"`);
    }
    if (/[,&]$/.test(body)) return cut('ends on a comma');
    const paragraph = trimmed.slice(trimmed.lastIndexOf('\n\n') + 1);
    const open = openAtEnd(paragraph);
    if (open && /\p{L}$/u.test(body)) return cut(`an open ${open}`);
    if (question || LIST_ITEM.test(lastLine)) return null;
    // A prompt (a user turn) ends where its writer stopped, often with no end mark, and its last
    // paragraph is mostly the material the instruction gives ("Correct the following sentence:
    // ..."): 5 of Alpaca's first 300 prompts were called cut off for that alone. Its cut-offs still
    // show by a dangling word, a comma, an open quote or bracket, a list or a code fence (above).
    if (context?.role === 'user') return null;
    // Only prose that punctuates its lines: most earlier prose lines end with a mark.
    const earlier = lines
      .slice(0, -1)
      .filter((l) => !LIST_ITEM.test(l) && !HEADING_OR_QUOTE.test(l));
    const punctuated = earlier.filter((l) => TERMINAL.test(l.trimEnd())).length;
    if (earlier.length > 0 && punctuated * 2 < earlier.length) return null;
    // The unfinished sentence: what follows the last end mark of the line.
    const fragment = words(body.slice(body.search(/[^.!?…]*$/)));
    const minimum = fragment.length < lastWords.length ? 4 : 8;
    if (fragment.length < minimum || all.length < (lines.length > 1 ? 15 : 25)) return null;
    return cut('ends mid-sentence');
  },
};

/** Whether the char code at `i` begins a word: a letter or a digit (what follows a hashtag's #). */
function wordStartAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return isLetterCodePoint(text.codePointAt(i) ?? 0);
}

/**
 * In one pass over the char codes: the runs of non-space chars, those holding
 * a letter (the matches of "non-spaces, a letter, non-spaces", one per such
 * run), and the matches of "#", "..." or "…" (non-overlapping, left to
 * right). A word may hold a figure instead of a letter ("1.0", ".654"). Three regex matches built three arrays of strings for this. A
 * hashtag (`#` opening a word: `#climate`, `#2024`) is a word of a tweet, not
 * a symbol; a bare or doubled `#` (`##`, a heading's) still is.
 */
const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;

function tokenCounts(text: string): { tokens: number; withLetters: number; symbols: number } {
  let tokens = 0;
  let withLetters = 0;
  let symbols = 0;
  let inToken = false;
  let hasLetter = false;
  let tokenStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpaceCode(code)) {
      if (inToken && hasLetter) withLetters++;
      inToken = false;
      continue;
    }
    if (!inToken) {
      tokens++;
      inToken = true;
      hasLetter = false;
      tokenStart = i;
    }
    if (code === 35) {
      if (!(i === tokenStart && wordStartAt(text, i + 1))) symbols++;
    } else if (code === 0x2026) symbols++;
    else if (code === 46 && text.charCodeAt(i + 1) === 46 && text.charCodeAt(i + 2) === 46) {
      symbols++;
      i += 2;
      continue;
    }
    if (hasLetter) continue;
    if (code < 128) {
      // A figure makes a word too: a table's or a calculation's numbers are data, not noise.
      hasLetter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || isDigitCode(code);
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      hasLetter =
        low >= 0xdc00 && low <= 0xdfff
          ? isLetterCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000)
          : false;
    } else hasLetter = isLetterCodePoint(code);
  }
  if (inToken && hasLetter) withLetters++;
  return { tokens, withLetters, symbols };
}

/** A row of a table: it starts with a bar, or bars or tabs part its cells. */
const TABLE_ROW = /^\s*\||\|[^|\n]*\||\t\S*\t/;
/** What a table row or a line of code holds at least (CODE_LINE's marks, or a tab). */
const TABLE_OR_CODE = new RegExp(`[|\\t]|${CODE_LINE.source}`, 'im');
/** A letter: code names things ("i := i + 1"), noise of marks ("<<< ;;; }}") names nothing. */
const IDENTIFIER = /[\p{L}_]/u;

/**
 * The lines of a text that are meant as prose: not a table's rows (figures
 * in cells) nor lines of code outside a fence (a reply whose fences were
 * lost, "def merge(a, lo) :=", `code += "…"`), which Gopher's ratios, made
 * for web pages, would read as noise.
 */
function proseLines(text: string): string {
  if (!TABLE_OR_CODE.test(text)) return text;
  return text
    .split('\n')
    .filter((line) => !TABLE_ROW.test(line) && !(CODE_LINE.test(line) && IDENTIFIER.test(line)))
    .join('\n');
}

/** Gopher: too many symbols per word, or too few words with letters, is not natural language. */
export const wordSaladRule: TextRule = {
  code: 'not_natural_language',
  dimension: 'fluency',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `the text reads as symbols or noise more than language (${f.example ?? ''})`,
  detect: (text) => {
    if (text.length < 200 || text.includes('```')) return null;
    const prose = proseLines(text);
    if (prose.length < 200) return null;
    const { tokens, withLetters, symbols: marks } = tokenCounts(prose);
    if (tokens < 50) return null;
    const alphabetic = withLetters / tokens;
    if (alphabetic < 0.8)
      return {
        count: 1,
        example: `${Math.round(alphabetic * 100)}% of words have letters or figures`,
      };
    const symbols = marks / tokens;
    if (symbols > 0.1) return { count: 1, example: `${symbols.toFixed(2)} symbols per word` };
    return null;
  },
};
