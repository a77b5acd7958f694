import { ContentKind, contentKind } from './content-tokens.ts';
import { hashString } from './minhash.ts';
import { UnionFind } from './union-find.ts';

/**
 * What two similar rows differ in, word by word, and what that makes them:
 * the same question, a copy with a changed word, or two siblings of one
 * template (see duplicates.ts for what each means to the check).
 *
 * A row's words are kept as a sorted multiset of 32-bit hashes whose lowest
 * four bits say what kind of content token the word is, 0 for prose
 * (content-tokens.ts): compact, and two rows compare in one merge.
 */

/**
 * Names travel with a row's words (from memory, SQLite or the file) as a
 * mark before the word: the one channel near-duplicate verification reads.
 */
const NAME_MARK = '\u0001';

/** The words with the names at `names` marked. */
export function markNames(words: string[], names: readonly number[]): string[] {
  for (const at of names) words[at] = NAME_MARK + (words[at] as string);
  return words;
}

/** A row's words as fetched: the words without marks, and the content kind of each. */
export interface RowWords {
  words: string[];
  kinds: Uint8Array;
}

const LOGIC_WORDS = new Set(['true', 'false', 'not']);

export function readRowWords(marked: readonly string[]): RowWords {
  const words = marked.map((word) => (word.startsWith(NAME_MARK) ? word.slice(1) : word));
  const kinds = new Uint8Array(words.length);
  for (let i = 0; i < words.length; i++) {
    // "True", "False" and "Not" capitalised (as Python writes them) are logic, not names;
    // other words in capitals ("NINE", "PARABOLA", "THAT") stay names.
    kinds[i] =
      (marked[i] as string).startsWith(NAME_MARK) && !LOGIC_WORDS.has(words[i] as string)
        ? ContentKind.name
        : contentKind(words, i);
  }
  return { words, kinds };
}

/** A content token as examples name it: its tagged hash and its text. */
export type ContentName = [tagged: number, word: string];

/**
 * A row's content tokens (not prose), in order, each once: what
 * `SiblingCollector.name` keeps. `seen` leaves out tokens an earlier row
 * already gave (rows read together, in order: the collector would skip them).
 */
export function contentNames({ words, kinds }: RowWords, seen?: Set<number>): ContentName[] {
  const out: ContentName[] = [];
  const mine = seen ?? new Set<number>();
  for (let i = 0; i < words.length; i++) {
    if (kinds[i] === ContentKind.prose) continue;
    const word = words[i] as string;
    const tagged = tag(word, kinds[i] as number);
    if (mine.has(tagged)) continue;
    mine.add(tagged);
    out.push([tagged, word]);
  }
  return out;
}

/** A word's hash with its kind in the lowest four bits. */
const tag = (word: string, kind: number): number => ((hashString(word) & ~15) | kind) >>> 0;
/** The word of a tagged hash, whatever its kind. */
const wordOf = (tagged: number): number => tagged >>> 4;

/**
 * The kinds a substitution compares, as bits: numbers, symbols and variables
 * stand in for each other in formulas ("{n}{0}" and "{n}{n}") and are one.
 */
const KIND_GROUP = [0, 1, 1, 1, 2, 4, 8, 16, 32, 64];

/** The sorted tagged word hashes of a row: the multiset two rows are compared on. */
export function taggedWords({ words, kinds }: RowWords): Uint32Array {
  const tagged = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) tagged[i] = tag(words[i] as string, kinds[i] as number);
  return tagged.sort();
}

/** The words only one side has: prose counted, content by kind, and the content ones themselves. */
export interface WordDifference {
  /** Content tokens only A has; a bit per kind among them (KIND_GROUP). */
  contentA: number;
  kindsA: number;
  proseA: number;
  contentB: number;
  kindsB: number;
  proseB: number;
  /** Of the content tokens, how many are symbols ("(", "*"), on each side. */
  symbolsA: number;
  symbolsB: number;
  /** The tagged hashes of the content tokens that differ (A's, then B's). */
  content: number[];
}

/** The multiset difference of two tagged word lists, both ways. */
export function compareWords(a: Uint32Array, b: Uint32Array): WordDifference {
  const diff: WordDifference = {
    contentA: 0,
    kindsA: 0,
    proseA: 0,
    contentB: 0,
    kindsB: 0,
    proseB: 0,
    symbolsA: 0,
    symbolsB: 0,
    content: [],
  };
  const onlyIn = (value: number, side: 'A' | 'B'): void => {
    const kind = value & 15;
    if (kind === ContentKind.prose) {
      diff[`prose${side}`]++;
      return;
    }
    diff[`content${side}`]++;
    diff[`kinds${side}`] |= KIND_GROUP[kind] as number;
    if (kind === ContentKind.symbol) diff[`symbols${side}`]++;
    diff.content.push(value);
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    // The same word, whatever its kind (an "a" beside a symbol in one row only).
    if (x !== undefined && y !== undefined && wordOf(x) === wordOf(y)) {
      i++;
      j++;
    } else if (y === undefined || (x !== undefined && x < y)) {
      onlyIn(x as number, 'A');
      i++;
    } else {
      onlyIn(y, 'B');
      j++;
    }
  }
  return diff;
}

/**
 * - `same`: some prose differs, but no content token: the same question,
 *   worded a little otherwise.
 * - `siblings`: content tokens of one kind on both sides ("sum" for
 *   "product", 4 for 8, f for g, Alice for Claire); content tokens alone
 *   added or taken away ("*", "not"); a clause with content added or taken
 *   away ("Take 1 step."); or the very same words in another order ("not
 *   True and False", "False and not True"): a template filled in
 *   differently, another question.
 * - `copy`: any other edit touching a content token (a number overwritten
 *   by a word): still a copy, but no longer surely the same question.
 */
export type Kinship = 'same' | 'siblings' | 'copy';

/**
 * Words a template adds or takes away, at least (fewer is an edit: one word for
 * two) and at most (more is one text copied into another).
 */
const MIN_CLAUSE_WORDS = 3;
const MAX_CLAUSE_WORDS = 12;

/**
 * What a copy of a question changes: a word or two on each side ("a word or
 * two of prose changed"; case, spacing and punctuation are gone before). A
 * pair of questions differing in more ("less than 10 years old" for "there
 * in the table", "will discuss" for "discussed" three times, a step added to
 * a route) fills a shared preamble or story with another question.
 */
export const QUESTION_COPY_WORDS = 2;

/**
 * `questions`: the rows ask something (multiple choice, question-answer, a
 * conversation), so a copy changes at most QUESTION_COPY_WORDS words a side;
 * documents (text samples) are copies at any extent the similarity allows.
 */
export function kinship(diff: WordDifference, questions = false): Kinship {
  const content = diff.contentA + diff.contentB;
  const prose = diff.proseA + diff.proseB;
  if (
    questions &&
    Math.max(diff.contentA + diff.proseA, diff.contentB + diff.proseB) > QUESTION_COPY_WORDS
  ) {
    return 'siblings';
  }
  // The very same words in another order: who did what to whom changed ("The guard called the
  // cleaner", "The cleaner called the guard"), or where the content tokens stand did.
  if (content === 0) return prose > 0 ? 'same' : 'siblings';
  if ((diff.kindsA & diff.kindsB) !== 0) return 'siblings';
  const onlyAdded = diff.contentA + diff.proseA === 0 || diff.contentB + diff.proseB === 0;
  if (onlyAdded && prose === 0) return 'siblings';
  // A question with a short clause holding content taken away ("Turn right.", "red") asks less.
  if (onlyAdded && questions) return 'siblings';
  // A clause with content added or taken away ("Take 1 step.", "We now add James, 12, 90"):
  // words, not symbols, counted, so "len(stack)" overwritten by one word is a word for a word.
  const wordsA = diff.contentA - diff.symbolsA + diff.proseA;
  const wordsB = diff.contentB - diff.symbolsB + diff.proseB;
  const added = Math.abs(wordsA - wordsB);
  return added >= MIN_CLAUSE_WORDS && added <= MAX_CLAUSE_WORDS ? 'siblings' : 'copy';
}

/** Sibling pairs as they are found: their sets, and the first few as examples. */
export class SiblingCollector {
  private readonly sets: UnionFind;
  private readonly involved: Uint8Array;
  private readonly names = new Map<number, string>();
  private readonly keptExamples: number;
  private readonly keptNames: number;
  readonly examples: { rows: [number, number]; content: number[] }[] = [];

  constructor(rows: number, keptExamples: number, keptNames: number) {
    this.sets = new UnionFind(rows);
    this.involved = new Uint8Array(rows);
    this.keptExamples = keptExamples;
    this.keptNames = keptNames;
  }

  /**
   * Remembers the text of a row's content tokens (`contentNames`; up to
   * `keptNames` distinct in all, the first met), to name examples.
   */
  name(names: readonly ContentName[]): void {
    for (const [tagged, word] of names) {
      if (this.names.size >= this.keptNames) return;
      if (!this.names.has(tagged)) this.names.set(tagged, word);
    }
  }

  add(a: number, b: number, diff: WordDifference): void {
    this.sets.union(a, b);
    this.involved[a] = 1;
    this.involved[b] = 1;
    if (this.examples.length < this.keptExamples) {
      this.examples.push({ rows: [a, b], content: diff.content });
    }
  }

  /** The content tokens an example differs in, as written (those whose text was kept). */
  differing(content: readonly number[]): string[] {
    return [...new Set(content.map((tagged) => this.names.get(tagged) ?? ''))].filter(
      (word) => word !== '',
    );
  }

  /** Rows with a sibling, and how many sets they make. */
  counts(): { rows: number; groups: number } {
    let rows = 0;
    let groups = 0;
    for (let row = 0; row < this.involved.length; row++) {
      if (this.involved[row] !== 1) continue;
      rows++;
      if (this.sets.find(row) === row) groups++;
    }
    return { rows, groups };
  }
}
