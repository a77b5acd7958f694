import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { TASK_TYPES } from '../../../src-shared/schemas/sample-kinds.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { verdictOf } from '../verdict.ts';
import { duplicateKey, type DuplicateKey } from './keys.ts';
import {
  bandingFor,
  bandsInto,
  fmix32,
  hashString,
  hashString2,
  jaccard,
  shingleSetOf,
  shinglesInPlace,
  signatureInto,
  SIGNATURE_BINS,
  type Banding,
} from './minhash.ts';
import {
  compareWords,
  contentNames,
  kinship,
  markNames,
  readRowWords,
  SiblingCollector,
  taggedWords,
  type ContentName,
  type WordDifference,
} from './template-siblings.ts';
import { UnionFind } from './union-find.ts';

/**
 * The `duplicates` check over a whole run: exact duplicates (equal keys after
 * the safe normalisation, see keys.ts), near duplicates (Jaccard similarity
 * of word bigrams at or above the threshold, found with MinHash LSH and
 * verified exactly), and label conflicts (rows asking the same question whose
 * labels differ).
 *
 * A near pair is compared word by word (template-siblings.ts, over the
 * content tokens of content-tokens.ts): two siblings of one template ("sum"
 * for "product", f for g, 4 for 8) ask different questions, so they are no
 * duplicates and are counted apart (`templated`); a pair differing in prose
 * only asks the same question; any other edit touching a content token (a
 * number overwritten by a word) leaves a copy, but not surely of the same
 * question, so it raises no label conflict.
 *
 * Memory is bounded by compact typed arrays, never an object per row: each
 * row added keeps a 64-bit key hash, a label hash and one hash per LSH band
 * (~100 bytes at the default threshold). Grouping sorts packed numbers per
 * band; only candidate pairs are verified, with the words of just those rows
 * fetched back through a callback (from memory, SQLite or the file).
 */

export const DEFAULT_DUPLICATE_THRESHOLD = 0.8;
/** Words of a stored signature before its band hashes: tag, key hash (2), label, has label, type. */
const SIGNATURE_HEADER = 6;
/** Members of one LSH bucket paired with all others; a larger bucket pairs with its first only. */
const BUCKET_PAIRS = 16;
/** Candidate pairs verified at most (32 MB of packed pairs). */
export const MAX_CANDIDATE_PAIRS = 4_000_000;
/** Candidate pairs verified between two turns of the caller's event loop. */
const VERIFY_SLICE = 4096;
/** Rows a `label_conflict` message names; the rest are counted. */
const SHOWN_CONFLICTS = 5;
/** Sibling pairs of a template kept as examples. */
const TEMPLATED_EXAMPLES = 3;
/** Distinct content tokens whose text is kept to name what examples differ in. */
const CONTENT_NAMES = 50_000;
/**
 * The version of the duplicate key, part of every stored signature's tag: a
 * signature made under another normalisation is stale. 1: the safe
 * normalisation (symbols kept, numbers read whole) and labels by value.
 */
const KEY_VERSION = 1;

export type DuplicateKind = 'exact' | 'near';

export interface DuplicateGroup {
  kind: DuplicateKind;
  /** Row positions, ascending: the first is the first occurrence. */
  rows: number[];
  /** The lowest similarity of a member to the first (1 for exact groups). */
  similarity: number;
  label_conflict: boolean;
}

/** The issues of the rows that have any, made on demand from compact per-row arrays. */
export interface DuplicateIssues {
  get(row: number): Issue[] | undefined;
  has(row: number): boolean;
  /** Rows with issues, ascending, each with its issues. */
  [Symbol.iterator](): Iterator<[number, Issue[]]>;
  /**
   * The rows of [first, first + count) that may have issues (those in a
   * group), ascending: asking `get` of just those, a slice's issues cost its
   * grouped rows, not its rows.
   */
  groupedIn?(first: number, count: number): Iterable<number>;
}

/** Two rows of one template, and the content tokens they differ in. */
export interface TemplatedPair {
  rows: [number, number];
  differing: string[];
}

/** Rows that are siblings of a template (similar, but differing in content tokens). */
export interface TemplatedRows {
  /** Rows with a sibling. */
  rows: number;
  /** Sets of siblings (connected by sibling pairs). */
  groups: number;
  examples: TemplatedPair[];
}

export interface DuplicateResult {
  groups: DuplicateGroup[];
  issues: DuplicateIssues;
  /** True when near-duplicate candidates passed MAX_CANDIDATE_PAIRS and the rest went unverified. */
  truncated: boolean;
  /** Template siblings found among the candidates: never duplicates, reported apart. */
  templated?: TemplatedRows;
}

/**
 * Gives the words of rows (ascending) to `deliver`, one row at a time: what
 * near-duplicate verification compares (from memory, SQLite or the file),
 * as words (`duplicateWords`) or already made into what is compared
 * (`verifyWords`, where the row was read: a worker).
 */
export type FetchWords = (
  rows: readonly number[],
  deliver: (row: number, words: readonly string[] | VerifyWords) => void,
) => Promise<void> | void;

/** What near-duplicate verification compares of a row, made from its words. */
export interface VerifyWords {
  /** Its bigram shingles, a sorted set. */
  shingles: Uint32Array;
  /** Its tagged word hashes, sorted (template-siblings.ts). */
  tagged: Uint32Array;
  /** Its content tokens' text, to name examples (`contentNames`). */
  names: ContentName[];
}

/** `seen`: see `contentNames` (rows read together, in order). */
export function verifyWords(marked: readonly string[], seen?: Set<number>): VerifyWords {
  const rowWords = readRowWords(marked);
  const tagged = taggedWords(rowWords);
  const names = contentNames(rowWords, seen);
  // Last: the shingles are made over the words' hashes, in place.
  return { shingles: shingleSetOf(rowWords.hashes), tagged, names };
}

/**
 * The VerifyWords of several rows in flat arrays, as a worker posts them:
 * row k's shingles are `shingles[shingleEnds[k - 1] ?? 0 .. shingleEnds[k]]`,
 * its tagged words likewise, its content names `names[k]`. Four buffers move
 * to the receiving thread, where two typed arrays and an object a row were
 * each copied and each a thing for its collector to trace (a million rows:
 * two million buffers).
 */
export interface PackedVerifyWords {
  shingles: Uint32Array;
  shingleEnds: Uint32Array;
  tagged: Uint32Array;
  taggedEnds: Uint32Array;
  names: ContentName[][];
}

export function packVerifyWords(made: readonly VerifyWords[]): PackedVerifyWords {
  const shingles = packArrays(made.map((m) => m.shingles));
  const tagged = packArrays(made.map((m) => m.tagged));
  return {
    shingles: shingles.data,
    shingleEnds: shingles.ends,
    tagged: tagged.data,
    taggedEnds: tagged.ends,
    names: made.map((m) => m.names),
  };
}

/** Row k of packed words, its arrays views of the packed ones. */
export function unpackVerifyWords(packed: PackedVerifyWords, k: number): VerifyWords {
  return {
    shingles: packed.shingles.subarray(packed.shingleEnds[k - 1] ?? 0, packed.shingleEnds[k]),
    tagged: packed.tagged.subarray(packed.taggedEnds[k - 1] ?? 0, packed.taggedEnds[k]),
    names: packed.names[k] ?? [],
  };
}

function packArrays(arrays: readonly Uint32Array[]): { data: Uint32Array; ends: Uint32Array } {
  const ends = new Uint32Array(arrays.length);
  let length = 0;
  arrays.forEach((array, i) => (ends[i] = length += array.length));
  const data = new Uint32Array(length);
  arrays.forEach((array, i) => data.set(array, (ends[i] as number) - array.length));
  return { data, ends };
}

/** How messages name a row (`row 12`, `data[3]`). */
export type NameRow = (row: number) => string;
/**
 * Lets the caller's event loop turn between the long steps of a finish (a
 * band of candidates): the app's server answers meanwhile. The engine itself
 * stays free of timers.
 */
export type Pause = () => Promise<void>;

/**
 * Whether a person said two rows (positions in the scan, the group's first
 * row then another) are not duplicates: the other row leaves that group.
 */
export type KeptApart = (first: number, row: number) => boolean;

/** A growable Uint32Array. */
class U32 {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }
  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const next = new Uint32Array(Math.max(this.data.length * 2, this.length + extra));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  push(value: number): void {
    this.reserve(1);
    this.data[this.length++] = value;
  }
}

/**
 * `rows` sorted by `keys` (one per row, aligned; `keys` is sorted in place
 * of a copy, so the caller's may be reused), ties in the rows' own order: a
 * stable LSD radix sort, three passes of 11 bits. Linear in the rows, where
 * a comparison sort of every LSH band was most of a scan's serial work (25
 * bands of 100k rows). Passes of 16 bits took two to three times as long:
 * their 65,536 counters do not stay in cache.
 */
export function sortByKeys(
  rows: Uint32Array,
  given: Uint32Array,
): { rows: Uint32Array; keys: Uint32Array } {
  const n = rows.length;
  let keys: Uint32Array = given;
  let order: Uint32Array = Uint32Array.from(rows);
  let keysOut: Uint32Array = new Uint32Array(n);
  let orderOut: Uint32Array = new Uint32Array(n);
  const counts = new Uint32Array(RADIX + 1);
  for (let shift = 0; shift < 32; shift += RADIX_BITS) {
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const digit = (((keys[i] as number) >>> shift) & RADIX_MASK) + 1;
      counts[digit] = (counts[digit] as number) + 1;
    }
    for (let d = 1; d <= RADIX; d++) counts[d] = (counts[d] as number) + (counts[d - 1] as number);
    for (let i = 0; i < n; i++) {
      const key = keys[i] as number;
      const digit = (key >>> shift) & RADIX_MASK;
      const at = counts[digit] as number;
      counts[digit] = at + 1;
      keysOut[at] = key;
      orderOut[at] = order[i] as number;
    }
    [keys, keysOut] = [keysOut, keys];
    [order, orderOut] = [orderOut, order];
  }
  return { rows: order, keys };
}

/**
 * The candidate pairs one LSH band gives, in the order they are counted:
 * the representatives (`reps`, ascending) sorted by their hash in the band
 * (`column`, aligned with `reps`); a bucket pairs each member with its first,
 * and a small bucket also all its members. Packed as `a * n + b` (a < b);
 * not yet each once. Pure, so any thread can make a band's pairs.
 */
export function bandPushes(reps: Uint32Array, column: Uint32Array, n: number): Float64Array {
  // Indexes into `reps` by their value in the band: made in plain loops, where an iterator over
  // `reps.keys()` and a closure per index were half of a band's time.
  const indexes = repeatedKeys(column, reps.length);
  const given = new Uint32Array(indexes.length);
  for (let i = 0; i < indexes.length; i++) given[i] = column[indexes[i] as number] as number;
  const { rows: sorted, keys } = sortByKeys(indexes, given);
  let out = new Float64Array(64);
  let count = 0;
  const push = (a: number, b: number): void => {
    if (count === out.length) {
      const next = new Float64Array(out.length * 2);
      next.set(out);
      out = next;
    }
    out[count++] = a * n + b;
  };
  for (let start = 0; start < sorted.length;) {
    const value = keys[start];
    let end = start + 1;
    while (end < sorted.length && keys[end] === value) end++;
    if (end - start > 1) {
      // Indexes in `reps` order as the rows do (reps ascend): the bucket's rows, ascending.
      const run = sorted.subarray(start, end).slice().sort();
      const first = reps[run[0] as number] as number;
      for (let i = 1; i < run.length; i++) {
        const row = reps[run[i] as number] as number;
        push(first, row);
        if (run.length <= BUCKET_PAIRS) {
          for (let j = 1; j < i; j++) push(reps[run[j] as number] as number, row);
        }
      }
    }
    start = end;
  }
  return out.slice(0, count);
}

/**
 * The indexes (ascending) of the first `count` values of `column` that may
 * occur more than once there: every value that does, and a few that do not.
 * A value met once makes no bucket, and in a band of distinct rows nearly
 * all are: the sort then takes a tenth of them (a fifth at a million rows,
 * where the table's cap leaves four slots a value), and the pairs are the
 * same (a stable sort of some rows orders them as the sort of all does).
 * Each value is counted, up to two, in a table of eight to sixteen slots per
 * value, by a hash of it (a band's values are already hashes; mixed again so
 * that values alike in their low bits do not share slots). Where nearly
 * every value repeats, the count is paid on top of the sort (1.2M rows, all
 * repeated: 120 -> 146 ms); 100,000 rows two thirds repeated, 25 bands:
 * 74-78 -> 68-73 ms; distinct: 55-65 -> 25-40 ms.
 */
export function repeatedKeys(column: Uint32Array, count: number): Uint32Array {
  const bits = Math.min(REPEAT_BITS_MAX, Math.max(10, Math.ceil(Math.log2(count + 1)) + 3));
  const drop = 32 - bits;
  const seen = new Uint8Array(1 << bits);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const slot = Math.imul(column[i] as number, 0x9e3779b1) >>> drop;
    const times = seen[slot] as number;
    if (times === 0) seen[slot] = 1;
    else {
      if (times === 1) {
        seen[slot] = 2;
        kept++; // the slot's first value, counted now
      }
      kept++;
    }
  }
  const out = new Uint32Array(kept);
  let at = 0;
  for (let i = 0; i < count && at < kept; i++) {
    if (seen[Math.imul(column[i] as number, 0x9e3779b1) >>> drop] === 2) out[at++] = i;
  }
  return out;
}

/** At most 2^22 slots (4 MiB) for `repeatedKeys`: a million rows' band still keeps few. */
const REPEAT_BITS_MAX = 22;

/**
 * Where the bands' pairs are made: given the number of bands, a band's
 * column (written into `into` when given, one value per representative),
 * the representatives and the row count, yields each band's `bandPushes` in
 * band order (a caller may stop early). The scan makes them itself unless
 * told otherwise (a file pass: on the engine's workers).
 */
export type BandPushes = (
  bands: number,
  column: (band: number, into?: Uint32Array) => Uint32Array,
  reps: Uint32Array,
  n: number,
) => AsyncIterable<Float64Array> | Iterable<Float64Array>;

/**
 * Pairs of rows one word apart with their labels flipped that make a dataset
 * one of minimal pairs, at least, in number and as a share of its rows: a
 * Winograd schema ("because it was too big" / "too small"), a contrast set,
 * counterfactual data, NLI hypotheses of one premise ("playing a piano" /
 * "playing a song"). There the flip is the design; a pair or two in a dataset
 * of other rows is a copy with conflicting labels.
 */
const MINIMAL_PAIRS = 20;
const MINIMAL_PAIR_SHARE = 0.005;

function isMinimalPairSet(pairs: number, rows: number): boolean {
  return pairs >= MINIMAL_PAIRS && pairs >= rows * MINIMAL_PAIR_SHARE;
}

/** A difference of no content token, for sibling pairs found by their labels. */
const NO_CONTENT: WordDifference = {
  contentA: 0,
  kindsA: 0,
  proseA: 1,
  contentB: 0,
  kindsB: 0,
  proseB: 1,
  symbolsA: 0,
  symbolsB: 0,
  content: [],
  pairsA: 0,
  pairsB: 0,
};

/** Words changed on a side that, with labels that differ, make two questions. */
const ASKED_APART = 2;

/** The task type of documents, whose copies may differ in more than a word or two. */
const TEXT_TYPE = TASK_TYPES.indexOf('text');

const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;
const RADIX_MASK = RADIX - 1;

export class DuplicateIndex {
  readonly threshold: number;
  private readonly banding: Banding;
  private readonly exactHi = new U32();
  private readonly exactLo = new U32();
  private readonly labels = new U32();
  private readonly hasLabel = new U32();
  private readonly types = new U32();
  private readonly origins = new U32();
  private readonly bands: U32;
  private readonly signature = new Uint32Array(SIGNATURE_BINS);
  private readonly bandScratch: Uint32Array;
  /** A sample's word hashes, then its shingles (signatureOf). */
  private wordHashes = new Uint32Array(1024);

  constructor(threshold = DEFAULT_DUPLICATE_THRESHOLD) {
    this.threshold = threshold;
    this.banding = bandingFor(threshold);
    this.bands = new U32(1024 * this.banding.bands);
    this.bandScratch = new Uint32Array(this.banding.bands);
  }

  get size(): number {
    return this.exactHi.length;
  }

  /**
   * Adds the next row (its position is the count of rows added before it).
   * `origin`: rows of one source row (the paths of one OpenAssistant tree)
   * share a nonzero origin, and are never near duplicates of each other:
   * sibling paths share most of their turns by construction.
   */
  add(sample: Sample, origin = 0, key: DuplicateKey = duplicateKey(sample)): void {
    this.addSignature(this.signatureOf(sample, key), origin);
  }

  /**
   * What the index keeps of a sample, as `lastSignature` gives it back: made
   * apart from adding it, so that another thread can hash the rows and this
   * one only add them (`addSignature`).
   */
  signatureOf(sample: Sample, key: DuplicateKey = duplicateKey(sample)): Uint32Array {
    const { parts, label } = key;
    // The 64-bit key hash folds two hashes of each word, parts apart; each word is hashed once
    // more for the shingles. Samples of different task types are never duplicates of each other.
    const type = TASK_TYPES.indexOf(sample.task_type);
    let hi = fmix32(0x243f6a88 ^ type);
    let lo = fmix32(0x85a308d3 ^ type);
    let count = 0;
    for (const part of parts) count += part.length;
    if (this.wordHashes.length < count) this.wordHashes = new Uint32Array(count * 2);
    // Scratch, reused sample after sample: a new typed array per sample costs an allocation
    // outside V8's heap.
    const hashes = this.wordHashes;
    let at = 0;
    for (const part of parts) {
      for (const word of part) {
        const h = hashString(word);
        hashes[at++] = h;
        hi = fmix32(Math.imul(hi, 0x01000193) ^ h);
        lo = fmix32(Math.imul(lo, 0x5bd1e995) ^ hashString2(word));
      }
      hi = fmix32(hi ^ 0x9e3779b9);
      lo = fmix32(lo ^ 0x7f4a7c15);
    }
    signatureInto(hashes, this.signature, shinglesInPlace(hashes, count));
    bandsInto(this.signature, this.banding, this.bandScratch);
    const out = new Uint32Array(SIGNATURE_HEADER + this.banding.bands);
    out[0] = this.tag;
    out[1] = hi;
    out[2] = lo;
    out[3] = label === null ? 0 : hashString(label);
    out[4] = label === null ? 0 : 1;
    out[5] = type;
    out.set(this.bandScratch, SIGNATURE_HEADER);
    return out;
  }

  /**
   * The tag first in every stored signature: one of another banding or key version is stale.
   */
  private get tag(): number {
    return KEY_VERSION * 65536 + this.banding.bands * 256 + this.banding.rows;
  }

  /**
   * What `add` kept of the last row, to store and give back to `addSignature`
   * later instead of the sample (a rescan then hashes only changed rows).
   */
  lastSignature(): Uint32Array {
    const row = this.size - 1;
    const { bands } = this.banding;
    const out = new Uint32Array(SIGNATURE_HEADER + bands);
    out.set([
      this.tag,
      this.exactHi.data[row] as number,
      this.exactLo.data[row] as number,
      this.labels.data[row] as number,
      this.hasLabel.data[row] as number,
      this.types.data[row] as number,
    ]);
    out.set(this.bands.data.subarray(row * bands, (row + 1) * bands), SIGNATURE_HEADER);
    return out;
  }

  /** Adds the next row from a stored signature; false (nothing added) when it is stale. */
  addSignature(signature: Uint32Array, origin = 0): boolean {
    const { bands } = this.banding;
    if (signature.length !== SIGNATURE_HEADER + bands || signature[0] !== this.tag) return false;
    this.origins.push(origin);
    this.exactHi.push(signature[1] as number);
    this.exactLo.push(signature[2] as number);
    this.labels.push(signature[3] as number);
    this.hasLabel.push(signature[4] as number);
    this.types.push(signature[5] as number);
    this.bands.reserve(bands);
    this.bands.data.set(signature.subarray(SIGNATURE_HEADER), this.bands.length);
    this.bands.length += bands;
    return true;
  }

  /**
   * Adds `count` rows whose signatures lie one after another in `packed`
   * (`signatureLength` each), as `addSignature` adds each in turn, without a
   * view per row; false (nothing added) when they are stale.
   */
  addSignatures(
    packed: Uint32Array,
    signatureLength: number,
    count: number,
    origins: readonly number[] | null,
  ): boolean {
    const { bands } = this.banding;
    if (count === 0) return true;
    if (signatureLength !== SIGNATURE_HEADER + bands || packed.length < count * signatureLength) {
      return false;
    }
    for (let i = 0; i < count; i++) if (packed[i * signatureLength] !== this.tag) return false;
    for (const column of [
      this.origins,
      this.exactHi,
      this.exactLo,
      this.labels,
      this.hasLabel,
      this.types,
    ]) {
      column.reserve(count);
    }
    this.bands.reserve(count * bands);
    for (let i = 0; i < count; i++) {
      const at = i * signatureLength;
      this.origins.push(origins?.[i] ?? 0);
      this.exactHi.push(packed[at + 1] as number);
      this.exactLo.push(packed[at + 2] as number);
      this.labels.push(packed[at + 3] as number);
      this.hasLabel.push(packed[at + 4] as number);
      this.types.push(packed[at + 5] as number);
      const into = this.bands.data;
      let to = this.bands.length;
      for (let b = at + SIGNATURE_HEADER, end = at + signatureLength; b < end; b++) {
        into[to++] = packed[b] as number;
      }
      this.bands.length = to;
    }
    return true;
  }

  /**
   * The groups and the issues of their rows. `fetch` gives the words of the
   * rows near-duplicate verification needs (those in candidate pairs only),
   * kept as compact shingle sets; `name` says how messages call a row.
   */
  async finish(
    fetch: FetchWords,
    name: NameRow = (row) => `row ${row}`,
    pause: Pause = () => Promise.resolve(),
    apart?: KeptApart,
    bandPushesElsewhere?: BandPushes,
  ): Promise<DuplicateResult> {
    const n = this.size;
    const all = new Uint32Array(n);
    for (let row = 0; row < n; row++) all[row] = row;
    const exactRep = this.exactRepresentatives(all);
    const { pairs, truncated } = await this.candidatePairs(
      representativesOf(exactRep),
      pause,
      bandPushesElsewhere,
    );

    // Verify the candidates on the exact bigram sets of the rows involved, fetched once, and
    // compare the words of those similar enough.
    // The rows in any pair, ascending: marked, then read off in order (a Set and a sort with a
    // comparator were tens of ms at 100k rows). Indexed loops: `for...of` over the pairs made an
    // iterator result per pair until the code was optimized.
    const marked = new Uint8Array(n);
    for (let p = 0; p < pairs.length; p++) {
      const pair = pairs[p] as number;
      marked[Math.floor(pair / n)] = 1;
      marked[pair % n] = 1;
    }
    const needed: number[] = [];
    for (let row = 0; row < n; row++) if (marked[row] === 1) needed.push(row);
    const sets = new SetPool(n);
    const words = new SetPool(n);
    const siblings = new SiblingCollector(n, TEMPLATED_EXAMPLES, CONTENT_NAMES);
    await fetch(needed, (row, given) => {
      if (isVerifyWords(given)) {
        sets.keep(row, given.shingles);
        words.keep(row, given.tagged);
        siblings.name(given.names);
        return;
      }
      const made = verifyWords(given);
      sets.copy(row, made.shingles);
      words.copy(row, made.tagged);
      siblings.name(made.names);
    });
    // `near`: copies (the groups); `same`: rows asking the same question (label conflicts).
    const near = new UnionFind(n);
    const same = new UnionFind(n);
    /** Pairs of rows one word apart whose labels differ, as (a, b) in turn. */
    const swaps = new U32();
    let verified = 0;
    for (let p = 0; p < pairs.length; p++) {
      const pair = pairs[p] as number;
      // Jaccard of a few hundred thousand pairs is seconds of work: the caller's loop turns.
      if (++verified % VERIFY_SLICE === 0) await pause();
      const a = Math.floor(pair / n);
      const b = pair % n;
      const origin = this.origins.data[a] as number;
      if (origin !== 0 && origin === this.origins.data[b]) continue;
      if (this.types.data[a] !== this.types.data[b] || same.find(a) === same.find(b)) continue;
      const setA = sets.get(a);
      const setB = sets.get(b);
      // A row whose words were not fetched is never taken for similar.
      if (!setA || !setB || jaccard(setA, setB) < this.threshold) continue;
      const diff = compareWords(words.get(a) ?? EMPTY_SET, words.get(b) ?? EMPTY_SET);
      const kin = kinship(diff, this.types.data[a] !== TEXT_TYPE);
      if (kin === 'siblings' || (kin === 'same' && this.askedApart(a, b, diff))) {
        siblings.add(a, b, diff);
        continue;
      }
      if (kin === 'same' && this.oneWordApart(a, b, diff)) {
        swaps.push(a);
        swaps.push(b);
        continue;
      }
      near.union(a, b);
      if (kin === 'same') same.union(a, b);
    }
    // One word swapped with the label flipped: by design where a dataset holds many such pairs
    // (minimal pairs), else a copy of a question whose labels conflict.
    const designed = isMinimalPairSet(swaps.length / 2, n);
    for (let k = 0; k < swaps.length; k += 2) {
      const [a, b] = [swaps.data[k] as number, swaps.data[k + 1] as number];
      if (designed) siblings.add(a, b, NO_CONTENT);
      else {
        near.union(a, b);
        same.union(a, b);
      }
    }

    /** The question a row asks: its set of the same question, by its first row. */
    const question = (row: number): number => same.find(exactRep[row] as number);

    // Groups: near components of representatives, each with its exact copies. Counted first,
    // so that only rows in a group of two or more get a list entry.
    const roots = new Int32Array(n);
    const sizes = new Int32Array(n);
    for (let row = 0; row < n; row++) {
      const root = near.find(exactRep[row] as number);
      roots[row] = root;
      sizes[root] = (sizes[root] as number) + 1;
    }
    const members = new Map<number, number[]>();
    for (let row = 0; row < n; row++) {
      const root = roots[row] as number;
      if ((sizes[root] as number) < 2) continue;
      const list = members.get(root);
      if (list) list.push(row);
      else members.set(root, [row]);
    }
    if (apart) keepApart(members, apart);
    // Per row: its group's index, its similarity to the first, whether it is an exact copy.
    const groupOf = new Int32Array(n).fill(-1);
    const similarityOf = new Float32Array(n);
    const groups: DuplicateGroup[] = [];
    for (const rows of members.values()) {
      const first = rows[0] as number;
      const firstRep = exactRep[first] as number;
      let lowest = 1;
      let kind: DuplicateKind = 'exact';
      for (const row of rows) {
        groupOf[row] = groups.length;
        const rep = exactRep[row] as number;
        if (rep === firstRep) {
          similarityOf[row] = 1;
          continue;
        }
        kind = 'near';
        const similarity = round(
          jaccard(sets.get(rep) ?? EMPTY_SET, sets.get(firstRep) ?? EMPTY_SET),
        );
        similarityOf[row] = similarity;
        lowest = Math.min(lowest, similarity);
      }
      groups.push({
        kind,
        rows,
        similarity: lowest,
        label_conflict: this.conflicting(rows, question),
      });
    }
    // Groups are numbered by their first row; the per-row index follows the sort.
    const order = groups
      .map((_, i) => i)
      .sort((x, y) => (groups[x]?.rows[0] as number) - (groups[y]?.rows[0] as number));
    const renumber = new Int32Array(groups.length);
    order.forEach((from, to) => (renumber[from] = to));
    for (let row = 0; row < n; row++) {
      const group = groupOf[row] as number;
      if (group >= 0) groupOf[row] = renumber[group] as number;
    }
    const sorted = order.map((i) => groups[i] as DuplicateGroup);
    const issues = this.issuesOf(sorted, groupOf, similarityOf, exactRep, question, name);
    const templated = {
      ...siblings.counts(),
      examples: siblings.examples.map(({ rows, content }) => ({
        rows,
        differing: siblings.differing(content),
      })),
    };
    return { groups: sorted, issues, truncated, templated };
  }

  /** Each row's exact representative: the first row with an equal 64-bit key hash. */
  private exactRepresentatives(all: Uint32Array): Int32Array {
    const n = all.length;
    const hi = this.exactHi.data;
    const lo = this.exactLo.data;
    const exactRep = new Int32Array(n);
    for (let row = 0; row < n; row++) exactRep[row] = row;
    // `all` is every row in order: its keys are the first n of `hi`.
    const { rows: byKey, keys } = sortByKeys(all, hi.slice(0, n));
    for (let start = 0; start < n;) {
      let end = start + 1;
      while (end < n && keys[end] === keys[start]) end++;
      if (end - start > 1) {
        const reps = new Map<number, number>();
        for (let i = start; i < end; i++) {
          const row = byKey[i] as number;
          const rep = reps.get(lo[row] as number);
          if (rep === undefined || row < rep) reps.set(lo[row] as number, row);
        }
        for (let i = start; i < end; i++) {
          const row = byKey[i] as number;
          exactRep[row] = reps.get(lo[row] as number) as number;
        }
      }
      start = end;
    }
    return exactRep;
  }

  /**
   * Near-duplicate candidates among representatives: rows sharing a band
   * hash. A bucket pairs each member with its first; a small bucket also
   * pairs all its members. Packed as `a * n + b` (a < b) in a typed array,
   * sorted and each once; at most MAX_CANDIDATE_PAIRS, so templated data
   * (every row in one bucket) cannot run away with the memory.
   */
  private async candidatePairs(
    reps: Uint32Array,
    pause: Pause,
    elsewhere: BandPushes | undefined,
  ): Promise<{ pairs: Float64Array; truncated: boolean }> {
    const n = this.size;
    const { bands } = this.banding;
    const bandData = this.bands.data;
    let pairs = new Float64Array(1024);
    let count = 0;
    /** pairs[0, merged) are sorted and distinct; the rest were added since. */
    let merged = 0;
    /**
     * Pairs pushed since the last merge, repeats skipped below included: the
     * cap is counted as if each had been stored, so truncation comes where it
     * always came.
     */
    let pending = 0;
    /**
     * The row each row was last paired after (-1: none). A bucket pairs its
     * members with its first, and a row's bucket is most often the same one
     * band after band (a template's rows share most bands): such a repeat is
     * skipped here rather than sorted and merged away once per band: the
     * candidates of a million GSM8K-like rows (in memory) took 2.8 s where
     * they took 4.1 s, the same 2,244,358 pairs. Only exact repeats are
     * skipped.
     */
    const lastPartner = new Int32Array(n).fill(-1);
    const state = { truncated: false };
    /**
     * Sorts the pairs added since the last merge and merges them into the
     * sorted ones, each once (the same pair from many bands counts once). A
     * band's pairs at a time: one sort of every band's together held the
     * server's thread 250 ms at 200k rows.
     */
    const merge = (): void => {
      pending = 0;
      if (count === merged) return;
      const added = pairs.slice(merged, count).sort();
      const out = new Float64Array(pairs.length);
      let [i, j, k] = [0, 0, 0];
      while (i < merged || j < added.length) {
        const value =
          j >= added.length || (i < merged && (pairs[i] as number) <= (added[j] as number))
            ? (pairs[i++] as number)
            : (added[j++] as number);
        if (k === 0 || out[k - 1] !== value) out[k++] = value;
      }
      pairs = out;
      count = k;
      merged = k;
    };
    const push = (a: number, b: number): void => {
      if (merged + pending === MAX_CANDIDATE_PAIRS) {
        merge();
        if (count > MAX_CANDIDATE_PAIRS * 0.9) {
          state.truncated = true;
          return;
        }
      }
      pending++;
      if (lastPartner[b] === a) return;
      lastPartner[b] = a;
      if (count === pairs.length) {
        const next = new Float64Array(Math.min(MAX_CANDIDATE_PAIRS, pairs.length * 2));
        next.set(pairs);
        pairs = next;
      }
      pairs[count++] = a * n + b;
    };
    /** A band's column: each representative's hash in that band, in the order of `reps`. */
    const columnOf = (band: number, into?: Uint32Array): Uint32Array => {
      const column = into ?? new Uint32Array(reps.length);
      for (let i = 0; i < reps.length; i++) {
        column[i] = bandData[(reps[i] as number) * bands + band] as number;
      }
      return column;
    };
    const pushesOf: BandPushes =
      elsewhere ??
      function* here(bandCount, column, rows, size) {
        for (let b = 0; b < bandCount; b++) yield bandPushes(rows, column(b), size);
      };
    let band = 0;
    for await (const pushes of pushesOf(bands, columnOf, reps, n)) {
      // Replayed in the order made: the cap on pairs truncates as it would have here.
      for (let i = 0; i < pushes.length; i++) {
        const pair = pushes[i] as number;
        push(Math.floor(pair / n), pair % n);
      }
      merge();
      await pause();
      if (state.truncated || ++band === bands) break;
    }
    merge();
    return { pairs: pairs.slice(0, count), truncated: state.truncated };
  }

  /** Whether both rows carry a label and the labels differ. */
  private labelsDiffer(a: number, b: number): boolean {
    return (
      this.hasLabel.data[a] === 1 &&
      this.hasLabel.data[b] === 1 &&
      this.labels.data[a] !== this.labels.data[b]
    );
  }

  /**
   * Two similar rows differing in prose only but labelled differently, with
   * two words or more changed on a side ("crime life" for "car crash", "will
   * definitely" for "could possibly"): their own labels say they ask
   * different questions of a shared template or story, so they are siblings,
   * not one question with conflicting labels. One word changed ("Find" for
   * "Compute", a misspelling) keeps them the same question, and their labels
   * in conflict. Counted on the words' hashes, so no row's text is kept.
   */
  private askedApart(a: number, b: number, diff: WordDifference): boolean {
    return this.labelsDiffer(a, b) && Math.max(diff.proseA, diff.proseB) >= ASKED_APART;
  }

  /** Two rows asking the same question but for one word of prose each, labelled differently. */
  private oneWordApart(a: number, b: number, diff: WordDifference): boolean {
    return this.labelsDiffer(a, b) && Math.max(diff.proseA, diff.proseB) === 1;
  }

  /** Whether labelled members of a group asking the same question (one `question`) disagree. */
  private conflicting(rows: readonly number[], question: (row: number) => number): boolean {
    const labels = new Map<number, number>();
    for (const row of rows) {
      if (this.hasLabel.data[row] !== 1) continue;
      const value = this.labels.data[row] as number;
      const key = question(row);
      const label = labels.get(key);
      if (label === undefined) labels.set(key, value);
      else if (value !== label) return true;
    }
    return false;
  }

  private issuesOf(
    groups: readonly DuplicateGroup[],
    groupOf: Int32Array,
    similarityOf: Float32Array,
    exactRep: Int32Array,
    question: (row: number) => number,
    name: NameRow,
  ): DuplicateIssues {
    const labelOf = (row: number): number | null =>
      this.hasLabel.data[row] === 1 ? (this.labels.data[row] as number) : null;
    /** The members of a group by the question they ask, made once per group that asks. */
    const byQuestion = new Map<number, Map<number, number[]>>();
    const askers = (groupIndex: number, group: DuplicateGroup, row: number): number[] => {
      let questions = byQuestion.get(groupIndex);
      if (!questions) {
        questions = new Map();
        for (const member of group.rows) {
          const key = question(member);
          const list = questions.get(key);
          if (list) list.push(member);
          else questions.set(key, [member]);
        }
        byQuestion.set(groupIndex, questions);
      }
      return questions.get(question(row)) ?? [];
    };
    /**
     * The first rows asking the same question labelled otherwise than `label`
     * (at most SHOWN_CONFLICTS) and how many there are, once per question and
     * label: every member of a label asks the same, and a filter per member
     * made a group of g conflicting rows cost g² (a templated dataset's
     * groups run to thousands of rows).
     */
    const conflicts = new Map<string, { first: number[]; count: number }>();
    const labelCounts = new Map<number, { labelled: number; byLabel: Map<number, number> }>();
    const otherLabels = (
      groupIndex: number,
      group: DuplicateGroup,
      row: number,
      label: number,
    ): { first: number[]; count: number } => {
      const asked = question(row);
      const key = `${asked}:${label}`;
      const known = conflicts.get(key);
      if (known) return known;
      const members = askers(groupIndex, group, row);
      let counts = labelCounts.get(asked);
      if (!counts) {
        counts = { labelled: 0, byLabel: new Map() };
        for (const member of members) {
          const value = labelOf(member);
          if (value === null) continue;
          counts.labelled++;
          counts.byLabel.set(value, (counts.byLabel.get(value) ?? 0) + 1);
        }
        labelCounts.set(asked, counts);
      }
      const first: number[] = [];
      for (const member of members) {
        if (first.length === SHOWN_CONFLICTS) break;
        const value = labelOf(member);
        if (value !== null && value !== label) first.push(member);
      }
      const found = { first, count: counts.labelled - (counts.byLabel.get(label) ?? 0) };
      conflicts.set(key, found);
      return found;
    };
    const get = (row: number): Issue[] | undefined => {
      const group = groups[groupOf[row] ?? -1];
      if (!group) return undefined;
      const first = group.rows[0] as number;
      const issues: Issue[] = [];
      if (row !== first) {
        const exact = exactRep[row] === exactRep[first];
        const similarity = exact ? 1 : round(similarityOf[row] as number);
        issues.push(
          exact
            ? {
                code: 'exact_duplicate',
                message: `the same as ${name(first)} (after normalising case, spaces and punctuation)`,
                severity: 'error',
                ref: first,
                similarity: 1,
              }
            : {
                code: 'near_duplicate',
                message: `nearly the same as ${name(first)} (${Math.round(similarity * 100)}% of word pairs shared)`,
                severity: 'error',
                ref: first,
                similarity,
              },
        );
      }
      const label = labelOf(row);
      const conflict =
        group.label_conflict && label !== null
          ? otherLabels(groupOf[row] as number, group, row, label)
          : null;
      if (conflict && conflict.count > 0) {
        const { first, count } = conflict;
        const shown = first.map(name).join(', ');
        const more = count > first.length ? ` and ${count - first.length} more` : '';
        issues.push({
          code: 'label_conflict',
          message: `the same question is labelled differently in ${shown}${more}`,
          severity: 'error',
          ref: first[0],
        });
      }
      return issues.length > 0 ? issues : undefined;
    };
    let grouped: Int32Array | undefined;
    return {
      get,
      has: (row) => get(row) !== undefined,
      *[Symbol.iterator]() {
        for (let row = 0; row < groupOf.length; row++) {
          const issues = get(row);
          if (issues) yield [row, issues];
        }
      },
      groupedIn(first, count) {
        grouped ??= groupedRows(groupOf);
        const rows = grouped;
        // The first grouped row at or after `first`.
        let low = 0;
        let high = rows.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if ((rows[mid] as number) < first) low = mid + 1;
          else high = mid;
        }
        let end = low;
        while (end < rows.length && (rows[end] as number) < first + count) end++;
        return rows.subarray(low, end);
      },
    };
  }
}

/** The rows that are their own exact representative, ascending. */
function representativesOf(exactRep: Int32Array): Uint32Array {
  let count = 0;
  for (let row = 0; row < exactRep.length; row++) if (exactRep[row] === row) count++;
  const reps = new Uint32Array(count);
  let at = 0;
  for (let row = 0; row < exactRep.length; row++) if (exactRep[row] === row) reps[at++] = row;
  return reps;
}

/** The rows that are in a group, ascending (a loop: an iterator made an object per row). */
function groupedRows(groupOf: Int32Array): Int32Array {
  let count = 0;
  for (let row = 0; row < groupOf.length; row++) if ((groupOf[row] as number) >= 0) count++;
  const rows = new Int32Array(count);
  let at = 0;
  for (let row = 0; row < groupOf.length; row++)
    if ((groupOf[row] as number) >= 0) rows[at++] = row;
  return rows;
}

const EMPTY_SET = new Uint32Array(0);

/**
 * Shingle sets (or tagged words) of rows, kept where they came: a row's set
 * is a view of the buffer a worker packed its rows in (PackedVerifyWords),
 * remembered as that buffer, an offset and a length. Copying each such set
 * into one growing buffer was 4.3 s of a million-row scan's thread (its
 * copies and its doublings). A set made on this thread (`verifyWords` of a
 * row's words) is copied into one buffer of the pool's own: kept as it is,
 * each row's would stay a buffer of its own until the end.
 */
class SetPool {
  private readonly chunks: Uint32Array[] = [];
  private last: ArrayBufferLike | undefined;
  /** The buffer the sets of their own are copied into, and its chunk (-1: none yet). */
  private own = new Uint32Array(4096);
  private ownUsed = 0;
  private ownChunk = -1;
  private readonly chunkOf: Int32Array;
  private readonly start: Int32Array;
  private readonly length: Int32Array;
  constructor(rows: number) {
    this.chunkOf = new Int32Array(rows).fill(-1);
    this.start = new Int32Array(rows);
    this.length = new Int32Array(rows);
  }
  /** Keeps a view as it is: the buffer it views stays while this pool does. */
  keep(row: number, set: Uint32Array): void {
    if (set.buffer !== this.last) {
      this.last = set.buffer;
      this.chunks.push(new Uint32Array(set.buffer, 0, set.buffer.byteLength >>> 2));
    }
    this.chunkOf[row] = this.chunks.length - 1;
    this.start[row] = set.byteOffset >>> 2;
    this.length[row] = set.length;
  }
  /** Copies a set (its buffer need not stay). */
  copy(row: number, set: Uint32Array): void {
    if (this.ownUsed + set.length > this.own.length) {
      const next = new Uint32Array(Math.max(this.own.length * 2, this.ownUsed + set.length));
      next.set(this.own.subarray(0, this.ownUsed));
      this.own = next;
      if (this.ownChunk >= 0) this.chunks[this.ownChunk] = next;
    }
    if (this.ownChunk < 0) {
      this.ownChunk = this.chunks.length;
      this.chunks.push(this.own);
    }
    this.own.set(set, this.ownUsed);
    this.chunkOf[row] = this.ownChunk;
    this.start[row] = this.ownUsed;
    this.length[row] = set.length;
    this.ownUsed += set.length;
  }
  get(row: number): Uint32Array | undefined {
    const chunk = this.chunkOf[row] as number;
    if (chunk < 0) return undefined;
    const start = this.start[row] as number;
    return (this.chunks[chunk] as Uint32Array).subarray(
      start,
      start + (this.length[row] as number),
    );
  }
}

const isVerifyWords = (given: readonly string[] | VerifyWords): given is VerifyWords =>
  !Array.isArray(given);

const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * The words a row's near-duplicate test compares (its names and the question after a passage
 * marked, see template-siblings.ts).
 */
export function duplicateWords(sample: Sample): string[] {
  const { parts, names, asked } = duplicateKey(sample);
  return markNames(parts.flat(), names, asked);
}

/** The `duplicates` verdict of a row from its issues (none: passed). */
export function duplicatesVerdict(issues: readonly Issue[] | undefined): Verdict {
  return issues && issues.length > 0
    ? verdictOf([...issues])
    : { passed: true, score: 1, issues: [] };
}

/** The duplicates of samples held in memory (one API request, a test). */
export async function findDuplicates(
  samples: readonly Sample[],
  threshold = DEFAULT_DUPLICATE_THRESHOLD,
  name?: NameRow,
): Promise<DuplicateResult> {
  // One sample has no other to repeat: skip building the index (a /v1 request
  // with one sample would otherwise pay ~3% of its time for it).
  if (samples.length < 2)
    return { groups: [], issues: new Map<number, Issue[]>(), truncated: false };
  const index = new DuplicateIndex(threshold);
  for (const sample of samples) index.add(sample);
  return index.finish((rows, deliver) => {
    for (const row of rows) deliver(row, duplicateWords(samples[row] as Sample));
  }, name);
}

/**
 * Groups less the rows a person kept apart from their first row; a group
 * left with one row is no group.
 */
function keepApart(members: Map<number, number[]>, apart: KeptApart): void {
  for (const [root, rows] of members) {
    const first = rows[0] as number;
    const kept = rows.filter((row) => row === first || !apart(first, row));
    if (kept.length < 2) members.delete(root);
    else if (kept.length < rows.length) members.set(root, kept);
  }
}
