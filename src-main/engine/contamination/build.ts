import { ANSWER, QUESTION, type FingerprintSet } from './fingerprints.ts';
import { grams } from './grams.ts';
import { tokenize } from './tokens.ts';

/**
 * Builds fingerprint sets from evaluation items: the shipped benchmarks (by
 * `scripts/build-benchmark-fingerprints.ts`) and a user's eval files (at run
 * time, `--against`).
 *
 * - A part of at least LONG_PART tokens is fingerprinted by its word
 *   13-grams, a shorter one by its 8-grams, and one of MIN_WHOLE to 7 tokens
 *   by the whole part as a single n-gram (matched only by a field that is
 *   exactly that text: a short question says little once embedded). A part
 *   shorter than that cannot be matched (a one-word answer says nothing).
 * - A long part (a worked solution, a function body) keeps one n-gram in
 *   SAMPLE_EVERY, chosen by the key's own bits, so a row's copy keeps the
 *   same ones and the share found stays a fair estimate; the files stay
 *   a fraction of the size.
 * - Boilerplate never matches on its own: an n-gram found in BOILERPLATE_ITEMS
 *   items or more, over all the sets built together (BBH's task
 *   instructions, IFEval's "Your entire response should be in English"), is
 *   dropped from every item, and a part's share is counted over the n-grams
 *   left.
 */

export interface EvalItem {
  /** The question, prompt or text. */
  question: string;
  /** Its answer or solution, when the set has one. */
  answer?: string;
}

export interface EvalSource {
  name: string;
  items: readonly EvalItem[];
}

export const LONG_N = 13;
export const SHORT_N = 8;
/** Parts this long or longer use 13-grams. */
export const LONG_PART = 20;
/** An n-gram in this many items or more is boilerplate. */
export const BOILERPLATE_ITEMS = 4;
/** The shortest part matched whole. */
export const MIN_WHOLE = 3;
/** Parts with more n-grams than this keep a sample of them. */
export const DENSE_GRAMS = 48;
/** The sample keeps the n-grams whose key is 0 modulo this. */
export const SAMPLE_EVERY = 4;
/** A part's n-grams are counted up to this (the totals are 16-bit). */
const MAX_PART_GRAMS = 0xffff;

/** The n-gram size for a part of `tokens` tokens (0: too short). */
export const gramSize = (tokens: number): number =>
  tokens >= LONG_PART ? LONG_N : tokens >= SHORT_N ? SHORT_N : tokens >= MIN_WHOLE ? tokens : 0;

interface PartGrams {
  hi: Uint32Array;
  lo: Uint32Array;
  n: number;
}

/** The distinct n-grams of one part of an item. */
function partGrams(text: string | undefined): PartGrams {
  if (!text) return { hi: new Uint32Array(0), lo: new Uint32Array(0), n: 0 };
  const tokens = tokenize(text);
  const n = gramSize(tokens.length);
  if (n === 0) return { hi: new Uint32Array(0), lo: new Uint32Array(0), n: 0 };
  const all = grams(tokens, n);
  const seen = new Set<string>();
  const hi: number[] = [];
  const lo: number[] = [];
  const sampled = all.hi.length > DENSE_GRAMS;
  for (let i = 0; i < all.hi.length && hi.length < MAX_PART_GRAMS; i++) {
    if (sampled && (all.lo[i] as number) % SAMPLE_EVERY !== 0) continue;
    const key = `${all.hi[i]}:${all.lo[i]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hi.push(all.hi[i] as number);
    lo.push(all.lo[i] as number);
  }
  return { hi: Uint32Array.from(hi), lo: Uint32Array.from(lo), n };
}

/** Fingerprint sets of `sources`, boilerplate counted across all of them. */
export function buildFingerprints(sources: readonly EvalSource[]): FingerprintSet[] {
  const parts = sources.map((source) =>
    source.items.map((item) => [partGrams(item.question), partGrams(item.answer)] as const),
  );
  // In how many items each key appears (an item counts once, whichever part).
  const itemsWith = new Map<string, number>();
  for (const set of parts) {
    for (const [question, answer] of set) {
      const keys = new Set<string>();
      for (const part of [question, answer]) {
        for (let i = 0; i < part.hi.length; i++) keys.add(`${part.hi[i]}:${part.lo[i]}`);
      }
      for (const key of keys) itemsWith.set(key, (itemsWith.get(key) ?? 0) + 1);
    }
  }
  const boilerplate = (hi: number, lo: number): boolean =>
    (itemsWith.get(`${hi}:${lo}`) ?? 0) >= BOILERPLATE_ITEMS;

  return sources.map((source, s) => {
    const items = parts[s] as (readonly [PartGrams, PartGrams])[];
    const entries: { hi: number; lo: number; ref: number }[] = [];
    const totals = new Uint16Array(items.length * 2);
    const sizes = new Uint8Array(items.length * 2);
    items.forEach((itemParts, item) => {
      for (const part of [QUESTION, ANSWER]) {
        const gramsOf = itemParts[part] as PartGrams;
        let kept = 0;
        for (let i = 0; i < gramsOf.hi.length; i++) {
          const hi = gramsOf.hi[i] as number;
          const lo = gramsOf.lo[i] as number;
          if (boilerplate(hi, lo)) continue;
          entries.push({ hi, lo, ref: (item << 1) | part });
          kept++;
        }
        totals[item * 2 + part] = kept;
        sizes[item * 2 + part] = kept > 0 ? gramsOf.n : 0;
      }
    });
    entries.sort((x, y) => x.hi - y.hi || x.lo - y.lo || x.ref - y.ref);
    const keys = new Uint32Array(entries.length * 2);
    const refs = new Uint32Array(entries.length);
    entries.forEach((entry, e) => {
      keys[2 * e] = entry.hi;
      keys[2 * e + 1] = entry.lo;
      refs[e] = entry.ref;
    });
    return { name: source.name, items: items.length, keys, refs, totals, sizes };
  });
}
