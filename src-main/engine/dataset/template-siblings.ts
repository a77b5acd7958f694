import { ContentKind, kindOfWord, readWord } from './content-tokens.ts';
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
/** Likewise for the words of a question asked after a passage (ContentKind.asked). */
const ASKED_MARK = '\u0002';

/**
 * The words with the names at `names` marked, and the words of the question
 * after a passage at `asked` (a word may carry both marks, the name's first).
 */
export function markNames(
  words: string[],
  names: readonly number[],
  asked: readonly number[] = [],
): string[] {
  for (const at of asked) words[at] = ASKED_MARK + (words[at] as string);
  for (const at of names) words[at] = NAME_MARK + (words[at] as string);
  return words;
}

/**
 * A row's words as fetched: the words without marks, the content kind of
 * each, and each one's hash (`hashString`), made once for the shingles, the
 * tagged words and the names alike.
 */
export interface RowWords {
  words: string[];
  kinds: Uint8Array;
  hashes: Uint32Array;
}

const LOGIC_WORDS = new Set(['true', 'false', 'not']);

export function readRowWords(marked: readonly string[]): RowWords {
  const count = marked.length;
  const words = new Array<string>(count);
  const kinds = new Uint8Array(count);
  const hashes = new Uint32Array(count);
  const traits = new Uint8Array(count);
  // Each word's marks dropped, then its hash and what its kind reads of its characters, in one
  // pass over it (readWord): a kind needs its neighbours' words, so kinds come in a second loop.
  for (let i = 0; i < count; i++) {
    const word = marked[i] as string;
    let from = 0;
    while (word.charCodeAt(from) === NAME_CODE || word.charCodeAt(from) === ASKED_CODE) from++;
    const plain = from === 0 ? word : word.slice(from);
    words[i] = plain;
    readWord(plain);
    hashes[i] = readWord.hash;
    traits[i] = readWord.traits;
  }
  for (let i = 0; i < count; i++) {
    const word = marked[i] as string;
    // "True", "False" and "Not" capitalised (as Python writes them) are logic, not names;
    // other words in capitals ("NINE", "PARABOLA", "THAT") stay names.
    // After a passage, any word of the question is the question's ("the last penguin", "the
    // fist penguin", "the Norse", "the raiders"): what is asked changed, whatever the word.
    if (isAsked(word)) kinds[i] = ContentKind.asked;
    else if (word.charCodeAt(0) === NAME_CODE && !LOGIC_WORDS.has(words[i] as string)) {
      kinds[i] = ContentKind.name;
    } else kinds[i] = kindOfWord(words, i, hashes[i] as number, traits[i] as number);
  }
  return { words, kinds, hashes };
}

const NAME_CODE = NAME_MARK.charCodeAt(0);
const ASKED_CODE = ASKED_MARK.charCodeAt(0);
const isAsked = (word: string): boolean =>
  word.startsWith(ASKED_MARK) || word.startsWith(NAME_MARK + ASKED_MARK);

/** A content token as examples name it: its tagged hash and its text. */
export type ContentName = [tagged: number, word: string];

/**
 * A row's content tokens (not prose), in order, each once: what
 * `SiblingCollector.name` keeps. `seen` leaves out tokens an earlier row
 * already gave (rows read together, in order: the collector would skip them).
 */
export function contentNames(
  { words, kinds, hashes }: RowWords,
  seen?: Set<number>,
): ContentName[] {
  const out: ContentName[] = [];
  const mine = seen ?? new Set<number>();
  for (let i = 0; i < words.length; i++) {
    if (kinds[i] === ContentKind.prose) continue;
    const word = words[i] as string;
    const tagged = tag(hashes[i] as number, kinds[i] as number);
    if (mine.has(tagged)) continue;
    mine.add(tagged);
    out.push([tagged, word]);
  }
  return out;
}

/** A word's hash (`hashString`) with its kind in the lowest four bits. */
const tag = (hash: number, kind: number): number => ((hash & ~15) | kind) >>> 0;
/** The word of a tagged hash, whatever its kind. */
const wordOf = (tagged: number): number => tagged >>> 4;

/**
 * The kinds a substitution compares, as bits: numbers, symbols and variables
 * stand in for each other in formulas ("{n}{0}" and "{n}{n}") and are one.
 */
const KIND_GROUP = [0, 1, 1, 1, 2, 4, 8, 16, 32, 64, 128];

/**
 * The kind (lowest four bits) of the entries that stand for two content
 * tokens one after the other: where the content tokens stand, which the
 * multiset of words alone does not see ("Take 10 steps left. Take 7 steps
 * right." and "Take 7 steps left. Take 10 steps right.").
 */
const CONTENT_PAIR = 15;

/**
 * The sorted tagged word hashes of a row: the multiset two rows are compared
 * on, with one CONTENT_PAIR entry for each two content tokens in a row.
 */
export function taggedWords({ words, kinds, hashes }: RowWords): Uint32Array {
  let content = 0;
  for (const kind of kinds) if (kind !== ContentKind.prose) content++;
  const tagged = new Uint32Array(words.length + Math.max(0, content - 1));
  let at = 0;
  let previous = -1;
  for (let i = 0; i < words.length; i++) {
    const kind = kinds[i] as number;
    const value = tag(hashes[i] as number, kind);
    tagged[at++] = value;
    if (kind === ContentKind.prose) continue;
    if (previous >= 0) tagged[at++] = pairOf(previous, value);
    previous = value;
  }
  return tagged.sort();
}

const pairOf = (first: number, second: number): number =>
  ((fmix(Math.imul(first, 0x01000193) ^ second) & ~15) | CONTENT_PAIR) >>> 0;

/** Murmur3's finaliser: the pair's hash spread over all bits. */
function fmix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
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
  /** Pairs of content tokens in a row only one side has (where the content tokens stand). */
  pairsA: number;
  pairsB: number;
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
    pairsA: 0,
    pairsB: 0,
  };
  const onlyIn = (value: number, side: 'A' | 'B'): void => {
    const kind = value & 15;
    if (kind === CONTENT_PAIR) {
      diff[`pairs${side}`]++;
      return;
    }
    if (kind === ContentKind.prose) {
      diff[`prose${side}`]++;
      return;
    }
    diff[`content${side}`]++;
    diff[`kinds${side}`] |= KIND_GROUP[kind] as number;
    if (kind === ContentKind.symbol) diff[`symbols${side}`]++;
    diff.content.push(value);
  };
  // Runs of one word (its entries sort together, by kind): the same kind matches first, then
  // the same word whatever its kind (an "a" beside a symbol in one row only); a pair of content
  // tokens only matches a pair.
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    // Equal entries (word and kind) always match first: most of two similar rows, in one step.
    if (x !== undefined && x === y) {
      i++;
      j++;
      continue;
    }
    const next = x === undefined ? (y as number) : y === undefined ? x : Math.min(x, y);
    const word = wordOf(next);
    const isPair = (next & 15) === CONTENT_PAIR;
    const endA = runEnd(a, i, word, isPair);
    const endB = runEnd(b, j, word, isPair);
    if (endA - i !== 1 || endB - j !== 1) matchRun(a, i, endA, b, j, endB, onlyIn);
    i = endA;
    j = endB;
  }
  return diff;
}

/** Where the run of entries of `word` (pairs or not) starting at `from` ends. */
function runEnd(list: Uint32Array, from: number, word: number, isPair: boolean): number {
  let end = from;
  while (
    end < list.length &&
    wordOf(list[end] as number) === word &&
    (((list[end] as number) & 15) === CONTENT_PAIR) === isPair
  ) {
    end++;
  }
  return end;
}

/**
 * Gives `onlyIn` the entries of one word's runs (`a[i, endA)`, `b[j, endB)`)
 * that the other side lacks: equal entries (word and kind) match first, then
 * what is left of each side matches the other's whatever its kind.
 */
function matchRun(
  a: Uint32Array,
  i: number,
  endA: number,
  b: Uint32Array,
  j: number,
  endB: number,
  onlyIn: (value: number, side: 'A' | 'B') => void,
): void {
  const leftA: number[] = [];
  const leftB: number[] = [];
  while (i < endA || j < endB) {
    const x = i < endA ? (a[i] as number) : undefined;
    const y = j < endB ? (b[j] as number) : undefined;
    if (x !== undefined && x === y) {
      i++;
      j++;
    } else if (y === undefined || (x !== undefined && x < y)) {
      leftA.push(x as number);
      i++;
    } else {
      leftB.push(y);
      j++;
    }
  }
  const matched = Math.min(leftA.length, leftB.length);
  for (let k = matched; k < leftA.length; k++) onlyIn(leftA[k] as number, 'A');
  for (let k = matched; k < leftB.length; k++) onlyIn(leftB[k] as number, 'B');
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
  if (questions && contentMoved(diff)) return 'siblings';
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

/**
 * Whether content tokens stand in another order ("Alice and Claire trade",
 * "Claire and Alice trade"; a step moved in a route), beyond what the tokens
 * only one side has explain: a token put in, taken out or replaced changes
 * at most two pairs on its own side and bridges one on the other.
 */
export function contentMoved(diff: WordDifference): boolean {
  return (
    diff.pairsA > 2 * diff.contentA + diff.contentB ||
    diff.pairsB > 2 * diff.contentB + diff.contentA
  );
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
