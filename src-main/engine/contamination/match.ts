import { LONG_N, MIN_WHOLE, SHORT_N } from './build.ts';
import { ANSWER, forEachEntry, QUESTION, type FingerprintSet } from './fingerprints.ts';
import { grams } from './grams.ts';
import { tokenize, type Tokens } from './tokens.ts';

/**
 * Finds the items of fingerprint sets that a row holds. The row's text
 * fields are read as one run of tokens in their order (so a question and its
 * answer split over two fields or turns read as the benchmark wrote them),
 * hashed at both n-gram sizes, and looked up in every set. A field of a few
 * tokens is also looked up whole (the short items). Per item, the share of
 * its question's and its answer's n-grams found says how much of it the row
 * holds.
 */

/** A text field of a row: its JSON Pointer and its text. */
export interface TextField {
  path: string;
  text: string;
}

export interface ItemMatch {
  /** The set's name (`gsm8k/test`). */
  set: string;
  /** The item's 0-based index in its set. */
  item: number;
  /** Share of the item's n-grams found (question and answer together), 0..1. */
  similarity: number;
  /** Share of its question's n-grams found (0 when it has none). */
  question: number;
  /** Share of its answer's n-grams found (0 when it has none). */
  answer: number;
  /** Whether the item has an answer part to be found. */
  hasAnswer: boolean;
  /** Distinct n-grams of the item found. */
  grams: number;
  /**
   * Whether what was found is evidence of the item. A short question
   * (fewer than SHORT_N tokens, fingerprinted whole) could be anyone's
   * question ("Who are you?"): it counts on its own only as a field that is
   * exactly it and longer than GENERIC_QUESTION tokens; else only with some
   * of its answer beside it.
   */
  evidence: boolean;
  /** The field that holds most of the match, and the `[start, end)` characters there. */
  path: string;
  span: [number, number];
}

/** A question of this many tokens or fewer is anyone's question on its own. */
export const GENERIC_QUESTION = 4;

/** Key bits the pre-filter looks at: 2^25 bits, 4 MiB. */
const FILTER_BITS = 25;

interface Hit {
  entries: Set<number>;
  /** A question n-gram was found as a whole field. */
  questionWhole: boolean;
  ranges: number[];
  set: number;
  item: number;
}

export class ContaminationMatcher {
  readonly #sets: readonly FingerprintSet[];
  /** One bit per key prefix present in any set: most of a row's n-grams stop here. */
  readonly #filter = new Uint32Array(1 << (FILTER_BITS - 5));

  constructor(sets: readonly FingerprintSet[]) {
    this.#sets = sets;
    for (const set of sets) {
      for (let e = 0; e < set.keys.length; e += 2) {
        const bit = (set.keys[e] as number) >>> (32 - FILTER_BITS);
        this.#filter[bit >>> 5] = (this.#filter[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
  }

  get sets(): readonly FingerprintSet[] {
    return this.#sets;
  }

  /** The best-matching item of each set the row's fields hold any of, best first. */
  match(fields: readonly TextField[]): ItemMatch[] {
    if (this.#sets.length === 0) return [];
    const read = readFields(fields);
    const hits = new Map<number, Hit>();
    const filter = this.#filter;
    const look = (hi: number, lo: number, start: number, end: number, whole: boolean): void => {
      this.#sets.forEach((set, s) => {
        forEachEntry(set, hi, lo, (entry) => {
          const ref = set.refs[entry] as number;
          const item = ref >>> 1;
          const key = s * 0x1000000 + item;
          let hit = hits.get(key);
          if (!hit) {
            hit = { entries: new Set(), ranges: [], set: s, item, questionWhole: false };
            hits.set(key, hit);
          }
          hit.entries.add(entry);
          if (whole && (ref & 1) === QUESTION) hit.questionWhole = true;
          hit.ranges.push(start, end);
        });
      });
    };
    // Short parts are fingerprinted whole (MIN_WHOLE..SHORT_N-1 tokens): their sizes are looked
    // up too, and a window that is exactly one field is told apart (`whole`).
    const fieldEnd = new Int32Array(read.tokens.length + 1).fill(-1);
    read.fieldStarts.forEach((start, f) => {
      fieldEnd[start] = read.fieldStarts[f + 1] ?? read.tokens.length;
    });
    for (let n = MIN_WHOLE; n <= LONG_N; n++) {
      if (n > SHORT_N && n < LONG_N) continue;
      const { hi, lo } = grams(read.tokens, n);
      for (let i = 0; i < hi.length; i++) {
        const h = hi[i] as number;
        const bit = h >>> (32 - FILTER_BITS);
        if (((filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) continue;
        look(h, lo[i] as number, i, i + n, fieldEnd[i] === i + n);
      }
    }

    const best = new Map<number, ItemMatch>();
    for (const hit of hits.values()) {
      const match = this.#describe(hit, read, fields);
      const previous = best.get(hit.set);
      if (!previous || better(match, previous) < 0) best.set(hit.set, match);
    }
    return [...best.values()].sort(better);
  }

  #describe(hit: Hit, read: ReadFields, fields: readonly TextField[]): ItemMatch {
    const set = this.#sets[hit.set] as FingerprintSet;
    const found = [0, 0];
    for (const entry of hit.entries) {
      const part = (set.refs[entry] as number) & 1;
      found[part] = (found[part] as number) + 1;
    }
    const totalQ = set.totals[hit.item * 2 + QUESTION] as number;
    const totalA = set.totals[hit.item * 2 + ANSWER] as number;
    const foundQ = found[QUESTION] as number;
    const foundA = found[ANSWER] as number;
    const { path, span } = spanOf(hit.ranges, read, fields);
    return {
      set: set.name,
      item: hit.item,
      similarity: (foundQ + foundA) / Math.max(1, totalQ + totalA),
      question: totalQ === 0 ? 0 : foundQ / totalQ,
      answer: totalA === 0 ? 0 : foundA / totalA,
      hasAnswer: totalA > 0,
      grams: foundQ + foundA,
      evidence: evidenceOf(set.sizes[hit.item * 2 + QUESTION] as number, hit.questionWhole, foundA),
      path,
      span,
    };
  }
}

function evidenceOf(questionSize: number, questionWhole: boolean, foundA: number): boolean {
  if (questionSize >= SHORT_N || foundA > 0) return true;
  return questionWhole && questionSize > GENERIC_QUESTION;
}

/**
 * Orders matches best first: the most of the item held (its question, or all
 * of it), then the most of all of it (of two items with one question, the
 * one whose answer is there too), then the earlier item.
 */
function better(x: ItemMatch, y: ItemMatch): number {
  const held = (m: ItemMatch): number => Math.max(m.question, m.similarity);
  return held(y) - held(x) || y.similarity - x.similarity || x.item - y.item;
}

interface ReadFields {
  tokens: Tokens;
  /** Per field, the index of its first token. */
  fieldStarts: number[];
  /** Per token, its field. */
  fieldOf: Uint16Array;
}

/** The fields' tokens, one after the other. */
function readFields(fields: readonly TextField[]): ReadFields {
  const parts = fields.map((field) => tokenize(field.text));
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const a = new Uint32Array(length);
  const b = new Uint32Array(length);
  const starts = new Uint32Array(length);
  const ends = new Uint32Array(length);
  const fieldOf = new Uint16Array(length);
  const fieldStarts: number[] = [];
  let at = 0;
  parts.forEach((part, f) => {
    fieldStarts.push(at);
    a.set(part.a, at);
    b.set(part.b, at);
    starts.set(part.starts, at);
    ends.set(part.ends, at);
    fieldOf.fill(Math.min(f, 0xffff), at, at + part.length);
    at += part.length;
  });
  return { tokens: { a, b, starts, ends, length }, fieldStarts, fieldOf };
}

/** The field most of the matched tokens are in, and their character range there. */
function spanOf(
  ranges: readonly number[],
  read: ReadFields,
  fields: readonly TextField[],
): { path: string; span: [number, number] } {
  const covered = new Uint8Array(read.tokens.length);
  for (let r = 0; r < ranges.length; r += 2) {
    covered.fill(1, ranges[r], ranges[r + 1]);
  }
  const perField = new Map<number, number>();
  covered.forEach((on, t) => {
    if (on)
      perField.set(read.fieldOf[t] as number, (perField.get(read.fieldOf[t] as number) ?? 0) + 1);
  });
  let field = 0;
  let most = -1;
  for (const [f, count] of perField) {
    if (count > most) [field, most] = [f, count];
  }
  let start = Infinity;
  let end = 0;
  covered.forEach((on, t) => {
    if (!on || read.fieldOf[t] !== field) return;
    start = Math.min(start, read.tokens.starts[t] as number);
    end = Math.max(end, read.tokens.ends[t] as number);
  });
  return {
    path: fields[field]?.path ?? '',
    span: [Number.isFinite(start) ? start : 0, end],
  };
}
