import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { TASK_TYPES, type Sample } from '../../../src-shared/schemas/sample.ts';
import { verdictOf } from '../verdict.ts';
import { duplicateKey } from './keys.ts';
import {
  bandingFor,
  bandsInto,
  hashString,
  jaccard,
  shingleHashes,
  shingleSet,
  signatureInto,
  SIGNATURE_BINS,
  type Banding,
} from './minhash.ts';

/**
 * The `duplicates` check over a whole run: exact duplicates (equal keys after
 * normalisation, see keys.ts), near duplicates (Jaccard similarity of word
 * bigrams at or above the threshold, found with MinHash LSH and verified
 * exactly), and label conflicts (members of a group whose labels differ).
 *
 * Memory is bounded by compact typed arrays, never an object per row: each
 * row added keeps a 64-bit key hash, a label hash and one hash per LSH band
 * (~100 bytes at the default threshold). Grouping sorts packed numbers per
 * band; only candidate pairs are verified, with the words of just those rows
 * fetched back through a callback (from memory, SQLite or the file).
 */

export const DEFAULT_DUPLICATE_THRESHOLD = 0.8;
/** Members of one LSH bucket paired with all others; a larger bucket pairs with its first only. */
const BUCKET_PAIRS = 64;

export type DuplicateKind = 'exact' | 'near';

export interface DuplicateGroup {
  kind: DuplicateKind;
  /** Row positions, ascending: the first is the first occurrence. */
  rows: number[];
  /** The lowest similarity of a member to the first (1 for exact groups). */
  similarity: number;
  label_conflict: boolean;
}

export interface DuplicateResult {
  groups: DuplicateGroup[];
  /** The issues of each row that has any (rows not listed pass). */
  issues: Map<number, Issue[]>;
}

/** The words of rows, by position: what near-duplicate verification compares. */
export type FetchWords = (
  rows: readonly number[],
) => Promise<Map<number, readonly string[]>> | Map<number, readonly string[]>;

/** How messages name a row (`row 12`, `data[3]`). */
export type NameRow = (row: number) => string;

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

class UnionFind {
  private parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size).map((_, i) => i);
  }
  find(x: number): number {
    let root = x;
    while (this.parent[root] !== root) root = this.parent[root] as number;
    while (this.parent[x] !== root) {
      const next = this.parent[x] as number;
      this.parent[x] = root;
      x = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    // The smaller index is the root, so a group's root is its first occurrence.
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }
}

/**
 * Sorts the rows by a 32-bit value per row (ties by row), packing both into
 * one float64 when they fit (value bits truncated as needed: equal values
 * stay equal, a few unequal ones collide, which only adds candidates), else
 * with a comparator.
 */
function sortRowsBy(rows: Uint32Array, valueOf: (row: number) => number): Uint32Array {
  const indexBits = Math.max(1, Math.ceil(Math.log2(rows.length + 1)));
  const keyBits = 53 - indexBits;
  if (keyBits < 24) {
    return Uint32Array.from(rows).sort((a, b) => valueOf(a) - valueOf(b) || a - b);
  }
  const shift = Math.max(0, 32 - keyBits);
  const scale = 2 ** indexBits;
  const packed = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    packed[i] = (valueOf(rows[i] as number) >>> shift) * scale + i;
  }
  packed.sort();
  const out = new Uint32Array(rows.length);
  for (let i = 0; i < packed.length; i++) out[i] = rows[(packed[i] as number) % scale] as number;
  return out;
}

export class DuplicateIndex {
  readonly threshold: number;
  private readonly banding: Banding;
  private readonly exactHi = new U32();
  private readonly exactLo = new U32();
  private readonly labels = new U32();
  private readonly hasLabel = new U32();
  private readonly types = new U32();
  private readonly bands: U32;
  private readonly signature = new Uint32Array(SIGNATURE_BINS);
  private readonly bandScratch: Uint32Array;

  constructor(threshold = DEFAULT_DUPLICATE_THRESHOLD) {
    this.threshold = threshold;
    this.banding = bandingFor(threshold);
    this.bands = new U32(1024 * this.banding.bands);
    this.bandScratch = new Uint32Array(this.banding.bands);
  }

  get size(): number {
    return this.exactHi.length;
  }

  /** Adds the next row (its position is the count of rows added before it). */
  add(sample: Sample): void {
    const { key, words, label } = duplicateKey(sample);
    // Samples of different task types are never duplicates of each other.
    const typed = `${sample.task_type}\u0000${key}`;
    this.exactHi.push(hashString(typed));
    this.exactLo.push(hashString(typed, 0x9747b28c));
    this.labels.push(label === null ? 0 : hashString(label));
    this.hasLabel.push(label === null ? 0 : 1);
    this.types.push(TASK_TYPES.indexOf(sample.task_type));
    signatureInto(shingleHashes(words), this.signature);
    bandsInto(this.signature, this.banding, this.bandScratch);
    this.bands.reserve(this.banding.bands);
    this.bands.data.set(this.bandScratch, this.bands.length);
    this.bands.length += this.banding.bands;
  }

  /**
   * The groups and the issues of their rows. `fetch` gives the words of the
   * rows near-duplicate verification needs (candidate pairs only); `name`
   * says how messages call a row.
   */
  async finish(fetch: FetchWords, name: NameRow = (row) => `row ${row}`): Promise<DuplicateResult> {
    const n = this.size;
    const hi = this.exactHi.data;
    const lo = this.exactLo.data;
    const all = new Uint32Array(n).map((_, i) => i);

    // 1. Exact groups: rows with equal 64-bit key hashes; each row's representative is the first.
    const exactRep = new Int32Array(n).map((_, i) => i);
    const byKey = sortRowsBy(all, (row) => hi[row] as number);
    for (let start = 0; start < n;) {
      let end = start + 1;
      const first = byKey[start] as number;
      while (end < n && hi[byKey[end] as number] === hi[first]) end++;
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

    // 2. Near-duplicate candidates among representatives: rows sharing a band hash.
    const reps = all.filter((row) => exactRep[row] === row);
    const pairs = new Set<number>();
    const { bands } = this.banding;
    const bandData = this.bands.data;
    for (let band = 0; band < bands; band++) {
      const sorted = sortRowsBy(reps, (row) => bandData[row * bands + band] as number);
      for (let start = 0; start < sorted.length;) {
        const value = bandData[(sorted[start] as number) * bands + band];
        let end = start + 1;
        while (end < sorted.length && bandData[(sorted[end] as number) * bands + band] === value)
          end++;
        const size = end - start;
        if (size > 1) {
          // Rows of a run come in ascending order (ties broken by row).
          const run = Array.from(sorted.subarray(start, end)).sort((a, b) => a - b);
          const first = run[0] as number;
          for (let i = 1; i < run.length; i++) {
            pairs.add(first * n + (run[i] as number));
            if (size <= BUCKET_PAIRS) {
              for (let j = 1; j < i; j++) pairs.add((run[j] as number) * n + (run[i] as number));
            }
          }
        }
        start = end;
      }
    }

    // 3. Verify candidates on the exact bigram sets of the rows involved.
    const needed = new Set<number>();
    for (const pair of pairs) {
      needed.add(Math.floor(pair / n));
      needed.add(pair % n);
    }
    const words = await fetch([...needed].sort((a, b) => a - b));
    const sets = new Map<number, Uint32Array>();
    for (const [row, list] of words) sets.set(row, shingleSet(list));
    const setOf = (row: number): Uint32Array => sets.get(row) ?? new Uint32Array(0);
    // A row whose words were not fetched is never taken for similar.
    const similar = (a: number, b: number): boolean =>
      sets.has(a) && sets.has(b) && jaccard(setOf(a), setOf(b)) >= this.threshold;
    const near = new UnionFind(n);
    for (const pair of pairs) {
      const a = Math.floor(pair / n);
      const b = pair % n;
      if (near.find(a) === near.find(b) || this.types.data[a] !== this.types.data[b]) continue;
      if (similar(a, b)) near.union(a, b);
    }

    // 4. Groups: near components of representatives, each with its exact copies.
    // Counted first, so that only rows in a group of two or more get a list entry.
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
    const groups: DuplicateGroup[] = [];
    const issues = new Map<number, Issue[]>();
    const addIssue = (row: number, issue: Issue): void => {
      const list = issues.get(row);
      if (list) list.push(issue);
      else issues.set(row, [issue]);
    };
    for (const rows of members.values()) {
      if (rows.length < 2) continue;
      const first = rows[0] as number;
      const firstRep = exactRep[first] as number;
      let lowest = 1;
      let kind: DuplicateKind = 'exact';
      for (const row of rows.slice(1)) {
        const rep = exactRep[row] as number;
        if (rep === firstRep) {
          addIssue(row, {
            code: 'exact_duplicate',
            message: `the same as ${name(first)} (after normalising case, spaces and punctuation)`,
            severity: 'error',
            ref: first,
            similarity: 1,
          });
          continue;
        }
        kind = 'near';
        const similarity = round(jaccard(setOf(rep), setOf(firstRep)));
        lowest = Math.min(lowest, similarity);
        addIssue(row, {
          code: 'near_duplicate',
          message: `nearly the same as ${name(first)} (${Math.round(similarity * 100)}% of word pairs shared)`,
          severity: 'error',
          ref: first,
          similarity,
        });
      }
      const conflict = this.labelConflicts(rows, name, addIssue);
      groups.push({ kind, rows, similarity: lowest, label_conflict: conflict });
    }
    groups.sort((a, b) => (a.rows[0] as number) - (b.rows[0] as number));
    return { groups, issues };
  }

  /** Marks every labelled member of a group whose labels differ; true when there was a conflict. */
  private labelConflicts(
    rows: readonly number[],
    name: NameRow,
    addIssue: (row: number, issue: Issue) => void,
  ): boolean {
    const labelled = rows.filter((row) => this.hasLabel.data[row] === 1);
    const distinct = new Set(labelled.map((row) => this.labels.data[row]));
    if (distinct.size < 2) return false;
    for (const row of labelled) {
      const others = labelled.filter((other) => this.labels.data[other] !== this.labels.data[row]);
      const shown = others.slice(0, 5).map(name).join(', ');
      const more = others.length > 5 ? ` and ${others.length - 5} more` : '';
      addIssue(row, {
        code: 'label_conflict',
        message: `the same question is labelled differently in ${shown}${more}`,
        severity: 'error',
        ref: others[0],
      });
    }
    return true;
  }
}

/** The words a row's near-duplicate test compares. */
export function duplicateWords(sample: Sample): string[] {
  return duplicateKey(sample).words;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

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
  const index = new DuplicateIndex(threshold);
  for (const sample of samples) index.add(sample);
  return index.finish(
    (rows) => new Map(rows.map((row) => [row, duplicateWords(samples[row] as Sample)] as const)),
    name,
  );
}
