import { LONG_N, MIN_WHOLE, SHORT_N } from './build.ts';
import { ANSWER, QUESTION, type FingerprintSet } from './fingerprints.ts';
import { gramsInto } from './grams.ts';
import { tokenizeInto, TokenBuffer, type Tokens } from './tokens.ts';

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
  /** The n-gram size of its question and of its answer (0: none; under 8: matched whole). */
  questionSize: number;
  answerSize: number;
  /** Distinct n-grams of the item found. */
  grams: number;
  /**
   * Whether what was found is evidence of the item. A short question
   * (fewer than SHORT_N tokens, fingerprinted whole) could be anyone's
   * question ("Who are you?"): it counts on its own only as most of a field
   * (at least 2/3 of its tokens: the question, perhaps with a short answer)
   * and longer than GENERIC_QUESTION tokens; else only with some of its
   * answer beside it.
   */
  evidence: boolean;
  /** The field that holds most of the match, and the `[start, end)` characters there. */
  path: string;
  span: [number, number];
}

/** A match before its place in the row is known. */
type Held = Omit<ItemMatch, 'path' | 'span'>;

/** A question of this many tokens or fewer is anyone's question on its own. */
export const GENERIC_QUESTION = 4;

/** A window of at least 2/3 of its field's tokens reads as the field (see `evidence`). */
const WHOLE_SHARE_NUM = 2;
const WHOLE_SHARE_DEN = 3;

/** Rows of at most this many tokens are searched for short parts at every size. */
const SHORT_ROW = 64;

/** Sets a matcher can hold, and items a set can hold: an entry's ref packs both in 32 bits. */
const MAX_SETS = 255;
const MAX_ITEMS = 1 << 23;
const ITEM_MASK = MAX_ITEMS - 1;

/**
 * The pre-filter most of a row's n-grams stop at: a blocked Bloom filter,
 * 2^BLOCK_BITS blocks of 512 bits (one cache line) chosen by the key's high
 * lane, three bits set in it by its low lane: 1 MiB. With the shipped
 * benchmarks' 552,410 n-grams about 18% of its bits are set, so about 0.6%
 * of other keys pass. The bit per key prefix it replaced took 4 MiB for
 * 1.6%: its reads missed the cache, and were about half of a row's matching.
 */
const BLOCK_BITS = 14;
const BLOCK_WORDS = 16;

/** Sets the key's three bits in its block. */
function addToFilter(filter: Uint32Array, hi: number, lo: number): void {
  const base = (hi >>> (32 - BLOCK_BITS)) * BLOCK_WORDS;
  for (let shift = 0; shift < 27; shift += 9) {
    const bit = (lo >>> shift) & 511;
    filter[base + (bit >>> 5)] = (filter[base + (bit >>> 5)] as number) | (1 << (bit & 31));
  }
}

/** Whether the key may be an entry (false: it is none). */
function mayHold(filter: Uint32Array, hi: number, lo: number): boolean {
  const base = (hi >>> (32 - BLOCK_BITS)) * BLOCK_WORDS;
  const b0 = lo & 511;
  const b1 = (lo >>> 9) & 511;
  const b2 = (lo >>> 18) & 511;
  return (
    ((filter[base + (b0 >>> 5)] as number) & (1 << (b0 & 31))) !== 0 &&
    ((filter[base + (b1 >>> 5)] as number) & (1 << (b1 & 31))) !== 0 &&
    ((filter[base + (b2 >>> 5)] as number) & (1 << (b2 & 31))) !== 0
  );
}

/** Bounds of the bucket table's size: 2^10 to 2^22 buckets (4 KiB to 16 MiB). */
const MIN_BUCKET_BITS = 10;
const MAX_BUCKET_BITS = 22;

interface Hit {
  /** Distinct entries of the item found: of its question, of its answer (see `#entries`). */
  foundQ: number;
  foundA: number;
  /** A question n-gram was found as a whole field. */
  questionWhole: boolean;
  /**
   * The token ranges `[start, end)` of the n-grams found, a range that
   * overlaps or touches the last one merged into it: n-grams found side by
   * side (most of a held item) make one range, not one each.
   */
  ranges: number[];
  set: number;
  item: number;
}

/** Adds `[start, end)` to a hit's ranges (see Hit.ranges). */
export function addRange(ranges: number[], start: number, end: number): void {
  const n = ranges.length;
  if (n > 0 && start >= (ranges[n - 2] as number) && start <= (ranges[n - 1] as number)) {
    if (end > (ranges[n - 1] as number)) ranges[n - 1] = end;
    return;
  }
  ranges.push(start, end);
}

/**
 * Every set's entries in one sorted index, with a table of where each key
 * prefix's entries start: a key is found by two reads of the table and a
 * short scan, not a binary search per set (a binary search's ~20 reads land
 * far apart in an index of megabytes: they were most of a match's time).
 */
export interface MergedIndex {
  keys: Uint32Array;
  /** Per entry: `set << 24 | item << 1 | part`. */
  refs: Uint32Array;
  /**
   * Entries with the prefix `p` (the key's top `32 - shift` bits) are
   * `[starts[p], starts[p + 1])`.
   */
  starts: Uint32Array;
  shift: number;
  /**
   * Every entry's key in a Bloom filter (`mayHold`): most of a row's
   * n-grams stop here (the bucket table has about half its buckets full).
   */
  filter: Uint32Array;
}

/** About one bucket per entry: half the buckets are empty and a full one holds one or two. */
export function bucketBits(entries: number): number {
  const bits = Math.ceil(Math.log2(Math.max(1, entries)));
  return Math.min(MAX_BUCKET_BITS, Math.max(MIN_BUCKET_BITS, bits));
}

/**
 * The sets' entries in one index sorted by key, each ref tagged with its set,
 * equal keys in set order: by a counting sort on the key's bucket (the
 * buckets' starts are the index's own), each set's sorted entries scattered
 * in turn, then each bucket sorted, stably. A bucket holds one or two
 * entries on average, so this is three passes over the entries. It replaced
 * merging the sets two at a time (each entry copied once per round), which,
 * in a worker's first moments when its code is still cold, cost 60-270 ms of
 * every worker's start for the shipped benchmarks.
 */
export function mergedIndex(
  sets: readonly FingerprintSet[],
  { shared = false }: { shared?: boolean } = {},
): MergedIndex {
  const words = (n: number): Uint32Array =>
    new Uint32Array(shared ? new SharedArrayBuffer(n * 4) : new ArrayBuffer(n * 4));
  let total = 0;
  for (const set of sets) total += set.refs.length;
  const bits = bucketBits(total);
  const shift = 32 - bits;
  const buckets = 2 ** bits;
  const starts = words(buckets + 1);
  for (const set of sets) {
    const setKeys = set.keys;
    for (let e = 0; e < set.refs.length; e++) {
      const prefix = (setKeys[2 * e] as number) >>> shift;
      starts[prefix + 1] = (starts[prefix + 1] as number) + 1;
    }
  }
  for (let p = 0; p < buckets; p++)
    starts[p + 1] = (starts[p + 1] as number) + (starts[p] as number);
  const keys = words(total * 2);
  const refs = words(total);
  const next = starts.slice(0, buckets);
  sets.forEach((set, s) => {
    const setKeys = set.keys;
    const setRefs = set.refs;
    const tag = s << 24;
    for (let e = 0; e < setRefs.length; e++) {
      const hi = setKeys[2 * e] as number;
      const prefix = hi >>> shift;
      const at = next[prefix] as number;
      next[prefix] = at + 1;
      keys[2 * at] = hi;
      keys[2 * at + 1] = setKeys[2 * e + 1] as number;
      refs[at] = (tag | (setRefs[e] as number)) >>> 0;
    }
  });
  for (let p = 0; p < buckets; p++)
    sortBucket(keys, refs, starts[p] as number, starts[p + 1] as number);
  const filter = words((1 << BLOCK_BITS) * BLOCK_WORDS);
  for (let e = 0; e < keys.length; e += 2) {
    addToFilter(filter, keys[e] as number, keys[e + 1] as number);
  }
  return { keys, refs, starts, shift, filter };
}

/** Above this many entries a bucket is sorted by a comparison sort, not by insertion. */
const INSERTION_MAX = 32;

/**
 * Sorts entries [from, to) by key, stably (equal keys keep their order: set
 * order, then each set's own). Insertion for the usual bucket of a few; a
 * bucket where one n-gram recurs in many items is sorted through an index.
 */
function sortBucket(keys: Uint32Array, refs: Uint32Array, from: number, to: number): void {
  if (to - from <= 1) return;
  if (to - from <= INSERTION_MAX) {
    for (let i = from + 1; i < to; i++) {
      const hi = keys[2 * i] as number;
      const lo = keys[2 * i + 1] as number;
      const ref = refs[i] as number;
      let j = i - 1;
      for (; j >= from; j--) {
        const h = keys[2 * j] as number;
        if (h < hi || (h === hi && (keys[2 * j + 1] as number) <= lo)) break;
        keys[2 * j + 2] = h;
        keys[2 * j + 3] = keys[2 * j + 1] as number;
        refs[j + 1] = refs[j] as number;
      }
      keys[2 * j + 2] = hi;
      keys[2 * j + 3] = lo;
      refs[j + 1] = ref;
    }
    return;
  }
  // Array.prototype.sort is stable, and fast on the sorted runs the sets make here.
  const order = Array.from({ length: to - from }, (_, k) => from + k);
  order.sort(
    (a, b) =>
      (keys[2 * a] as number) - (keys[2 * b] as number) ||
      (keys[2 * a + 1] as number) - (keys[2 * b + 1] as number),
  );
  const sortedKeys = order.flatMap((e) => [keys[2 * e] as number, keys[2 * e + 1] as number]);
  const sortedRefs = order.map((e) => refs[e] as number);
  keys.set(sortedKeys, 2 * from);
  refs.set(sortedRefs, from);
}

/** Numbers per entry of a matcher's interleaved index (see ContaminationMatcher.#entries). */
const ENTRY = 4;

/** The index's keys and refs side by side, each entry's mark (the 4th number) at 0. */
function interleaved(keys: Uint32Array, refs: Uint32Array): Uint32Array {
  const entries = new Uint32Array(refs.length * ENTRY);
  for (let e = 0; e < refs.length; e++) {
    entries[e * ENTRY] = keys[2 * e] as number;
    entries[e * ENTRY + 1] = keys[2 * e + 1] as number;
    entries[e * ENTRY + 2] = refs[e] as number;
  }
  return entries;
}

/**
 * Where `slide`'s reads ahead go: a value stored on an object is never
 * optimized away, so the reads are made (they are made for the cache, not
 * for the value).
 */
const readAhead = { sink: 0 };

export class ContaminationMatcher {
  readonly #sets: readonly FingerprintSet[];
  /** Scratch for a row's keys, reused from row to row. */
  #hi = new Uint32Array(1024);
  #lo = new Uint32Array(1024);
  /** Of a row's n-grams, those the filter let through (see `slide`). */
  #passed = new Uint32Array(1024);
  /** Their buckets' first entries. */
  #firsts = new Uint32Array(1024);
  /** A row's tokens and each token's field, reused row after row (readFields). */
  readonly #tokens = new TokenBuffer();
  #fieldOf: Uint16Array = new Uint16Array(1024);
  /**
   * Made on the first match, from the index given or else merged here
   * (`mergedIndex`: 40-100 ms for the shipped benchmarks): a thread that only
   * gathers what others matched never makes it. Its keys and refs are then
   * kept in `#entries`; its starts and filter may be another thread's memory.
   */
  #index: Omit<MergedIndex, 'keys' | 'refs'> | undefined;
  /**
   * The index's entries side by side, four numbers each: the key's two
   * halves, the ref, and the last match that found the entry (`#generation`:
   * an entry is counted once per row without a set of entries per hit). A
   * looked-up n-gram's entry is one cache line: with keys, refs and marks in
   * three arrays it was three, and these reads, missing the cache, are most
   * of the matching of a row that holds an item.
   */
  #entries: Uint32Array = new Uint32Array(0);
  #generation = 0;

  /** The index another thread merged from the same sets (see the constructor), until the first match. */
  #given: MergedIndex | undefined;
  /** `sharedIndex()`'s, kept for the next run's workers. */
  #shared: MergedIndex | undefined;

  /**
   * `index`: `mergedIndex(sets, { shared: true })` as another thread made it
   * (a run's main thread, once for all its workers): this thread then only
   * lays its entries out (`interleaved`), where merging took 40-100 ms and
   * ~12 MB in each of a run's workers.
   */
  constructor(sets: readonly FingerprintSet[], index?: MergedIndex) {
    if (sets.length > MAX_SETS) throw new Error(`at most ${MAX_SETS} evaluation sets at once`);
    for (const set of sets) {
      if (set.items > MAX_ITEMS) {
        throw new Error(
          `${set.name}: ${set.items} items, more than the ${MAX_ITEMS} a set can hold`,
        );
      }
    }
    this.#sets = sets;
    if (index) {
      let total = 0;
      for (const set of sets) total += set.refs.length;
      if (index.refs.length !== total || index.keys.length !== 2 * total) {
        throw new Error(`an index of ${index.refs.length} entries for sets of ${total}`);
      }
      this.#given = index;
    }
  }

  get sets(): readonly FingerprintSet[] {
    return this.#sets;
  }

  /**
   * The sets' index merged in shared memory, once per matcher: what the
   * workers that match for this thread are given (see the constructor).
   */
  sharedIndex(): MergedIndex {
    this.#shared ??= mergedIndex(this.#sets, { shared: true });
    return this.#shared;
  }

  /** The best-matching item of each set the row's fields hold any of, best first. */
  match(fields: readonly TextField[]): ItemMatch[] {
    if (this.#sets.length === 0) return [];
    const read = readFields(fields, this.#tokens, this.#fieldOf);
    this.#fieldOf = read.fieldOf;
    const hits = new Map<number, Hit>();
    if (!this.#index) {
      const { keys, refs, starts, shift, filter } =
        this.#given ?? this.#shared ?? mergedIndex(this.#sets);
      this.#entries = interleaved(keys, refs);
      this.#index = { starts, shift, filter };
      this.#given = undefined;
    }
    const { starts, shift, filter } = this.#index;
    const entries = this.#entries;
    if (this.#generation === 0xffffffff) {
      for (let e = 3; e < entries.length; e += ENTRY) entries[e] = 0;
      this.#generation = 0;
    }
    const generation = ++this.#generation;
    let lastKey = -1;
    let lastHit: Hit | undefined;
    /** Looks up a key from `first`, the first entry of its bucket. */
    const look = (
      hi: number,
      lo: number,
      first: number,
      start: number,
      end: number,
      whole: boolean,
    ): void => {
      const last = starts[(hi >>> shift) + 1] as number;
      for (let at = first * ENTRY; at < last * ENTRY; at += ENTRY) {
        const h = entries[at] as number;
        // Sorted: past the key, nothing more of it.
        if (h > hi) return;
        if (h !== hi || entries[at + 1] !== lo) continue;
        const ref = entries[at + 2] as number;
        // Set and item together: the map's key.
        const key = ref >>> 1;
        // Side by side n-grams mostly find the same item: the last one found is asked first.
        let hit = key === lastKey ? lastHit : hits.get(key);
        if (!hit) {
          hit = {
            foundQ: 0,
            foundA: 0,
            ranges: [],
            set: ref >>> 24,
            item: key & ITEM_MASK,
            questionWhole: false,
          };
          hits.set(key, hit);
        }
        lastKey = key;
        lastHit = hit;
        if (entries[at + 3] !== generation) {
          entries[at + 3] = generation;
          if ((ref & 1) === QUESTION) hit.foundQ++;
          else hit.foundA++;
        }
        if (whole && (ref & 1) === QUESTION) hit.questionWhole = true;
        addRange(hit.ranges, start, end);
      }
    };
    if (this.#hi.length < read.tokens.length) {
      this.#hi = new Uint32Array(read.tokens.length * 2);
      this.#lo = new Uint32Array(read.tokens.length * 2);
      this.#passed = new Uint32Array(read.tokens.length * 2);
      this.#firsts = new Uint32Array(read.tokens.length * 2);
    }
    const hi = this.#hi;
    const lo = this.#lo;
    const passed = this.#passed;
    const firsts = this.#firsts;
    const entryCount = entries.length / ENTRY;
    // In stages, each a loop over the row's n-grams: the index is megabytes, and one n-gram's
    // reads, one after the other, each wait on memory; a stage's reads of many n-grams are in
    // flight at once. A row holding an item ran two to three times slower from the cache misses.
    const slide = (n: number): void => {
      const count = gramsInto(read.tokens, n, hi, lo);
      let through = 0;
      for (let i = 0; i < count; i++) {
        if (mayHold(filter, hi[i] as number, lo[i] as number)) passed[through++] = i;
      }
      // Read ahead: each n-gram's bucket start, and its first entry (key, ref and mark: one line).
      let sink = 0;
      for (let k = 0; k < through; k++) {
        const first = starts[(hi[passed[k] as number] as number) >>> shift] as number;
        firsts[k] = first;
        if (first < entryCount) {
          sink ^= entries[first * ENTRY] as number;
        }
      }
      readAhead.sink = sink;
      for (let k = 0; k < through; k++) {
        const i = passed[k] as number;
        look(hi[i] as number, lo[i] as number, firsts[k] as number, i, i + n, isField(i, i + n));
      }
    };
    // Most of one field: the row asks that question (perhaps with a short answer after it).
    const isField = (start: number, end: number): boolean => {
      const f = read.fieldOf[start] as number;
      if (read.fieldOf[end - 1] !== f) return false;
      const fieldLength =
        (read.fieldStarts[f + 1] ?? read.tokens.length) - (read.fieldStarts[f] as number);
      return (end - start) * WHOLE_SHARE_DEN >= fieldLength * WHOLE_SHARE_NUM;
    };
    // The n-grams of the long parts, and each short field whole (a short question asked alone).
    slide(SHORT_N);
    slide(LONG_N);
    read.fieldStarts.forEach((start, f) => {
      const end = read.fieldStarts[f + 1] ?? read.tokens.length;
      const n = end - start;
      if (n < MIN_WHOLE || n >= SHORT_N) return;
      gramsInto(tokenRange(read.tokens, start, end), n, hi, lo);
      look(
        hi[0] as number,
        lo[0] as number,
        starts[(hi[0] as number) >>> shift] as number,
        start,
        end,
        true,
      );
    });
    // Short parts (fingerprinted whole) are looked for inside longer text only for the items
    // already found by other parts (a short question embedded next to its long answer), or in a
    // short row. Sliding every short size over every row would cost more than all the rest.
    const sizes = new Set<number>();
    // A short row (a question and its answer, a chat turn) is cheap to slide every size over.
    if (read.tokens.length <= SHORT_ROW) for (let n = MIN_WHOLE; n < SHORT_N; n++) sizes.add(n);
    for (const hit of hits.values()) {
      const set = this.#sets[hit.set] as FingerprintSet;
      for (const part of [QUESTION, ANSWER]) {
        const size = set.sizes[hit.item * 2 + part] as number;
        if (size >= MIN_WHOLE && size < SHORT_N) sizes.add(size);
      }
    }
    for (const n of sizes) slide(n);

    // The best item of each set; where in the row it is, of those alone (`better` needs no span).
    const best = new Map<number, [Held, Hit]>();
    for (const hit of hits.values()) {
      const match = this.#describe(hit);
      const previous = best.get(hit.set);
      if (!previous || better(match, previous[0]) < 0) best.set(hit.set, [match, hit]);
    }
    const matches: ItemMatch[] = [];
    for (const [match, hit] of best.values()) {
      const { path, span } = spanOf(hit.ranges, read, fields);
      matches.push({ ...match, path, span });
    }
    return matches.sort(better);
  }

  /** What a hit holds of its item (its place in the row is worked out after, for the best). */
  #describe(hit: Hit): Held {
    const set = this.#sets[hit.set] as FingerprintSet;
    const totalQ = set.totals[hit.item * 2 + QUESTION] as number;
    const totalA = set.totals[hit.item * 2 + ANSWER] as number;
    const { foundQ, foundA } = hit;
    return {
      set: set.name,
      item: hit.item,
      similarity: (foundQ + foundA) / Math.max(1, totalQ + totalA),
      question: totalQ === 0 ? 0 : foundQ / totalQ,
      answer: totalA === 0 ? 0 : foundA / totalA,
      hasAnswer: totalA > 0,
      questionSize: set.sizes[hit.item * 2 + QUESTION] as number,
      answerSize: set.sizes[hit.item * 2 + ANSWER] as number,
      grams: foundQ + foundA,
      evidence: evidenceOf(set.sizes[hit.item * 2 + QUESTION] as number, hit.questionWhole, foundA),
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
function better(x: Held, y: Held): number {
  const held = (m: Held): number => Math.max(m.question, m.similarity);
  return held(y) - held(x) || y.similarity - x.similarity || x.item - y.item;
}

interface ReadFields {
  tokens: Tokens;
  /** Per field, the index of its first token. */
  fieldStarts: number[];
  /** Per token, its field. */
  fieldOf: Uint16Array;
}

/**
 * The fields' tokens, one after the other, read into `tokens` (cleared
 * first); `fieldOf` is grown when too short and returned. Both belong to the
 * matcher and serve row after row: the row is read in no new typed array.
 */
function readFields(
  fields: readonly TextField[],
  tokens: TokenBuffer,
  fieldOf: Uint16Array,
): ReadFields {
  tokens.clear();
  const fieldStarts: number[] = [];
  for (const field of fields) {
    fieldStarts.push(tokens.length);
    tokenizeInto(field.text, tokens);
  }
  let owner = fieldOf;
  if (owner.length < tokens.length) owner = new Uint16Array(tokens.length * 2);
  fieldStarts.forEach((start, f) => {
    owner.fill(Math.min(f, 0xffff), start, fieldStarts[f + 1] ?? tokens.length);
  });
  return { tokens, fieldStarts, fieldOf: owner };
}

/** Tokens `[start, end)` of `tokens`, as views (no copy). */
function tokenRange(tokens: Tokens, start: number, end: number): Tokens {
  return {
    a: tokens.a.subarray(start, end),
    b: tokens.b.subarray(start, end),
    starts: tokens.starts.subarray(start, end),
    ends: tokens.ends.subarray(start, end),
    length: end - start,
  };
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
  // Plain loops: this runs for every row that holds anything.
  const perField = new Map<number, number>();
  for (let t = 0; t < covered.length; t++) {
    if (covered[t] === 0) continue;
    const f = read.fieldOf[t] as number;
    perField.set(f, (perField.get(f) ?? 0) + 1);
  }
  let field = 0;
  let most = -1;
  for (const [f, count] of perField) {
    if (count > most) [field, most] = [f, count];
  }
  let start = Infinity;
  let end = 0;
  for (let t = 0; t < covered.length; t++) {
    if (covered[t] === 0 || read.fieldOf[t] !== field) continue;
    start = Math.min(start, read.tokens.starts[t] as number);
    end = Math.max(end, read.tokens.ends[t] as number);
  }
  return {
    path: fields[field]?.path ?? '',
    span: [Number.isFinite(start) ? start : 0, end],
  };
}
