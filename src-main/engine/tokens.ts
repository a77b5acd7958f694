import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';
import { preTokenCount } from './bpe/count.ts';
import { o200kTable } from './bpe/o200k.ts';
import { isSpaceCode } from './text/chars.ts';

/**
 * Token counts with a real BPE tokenizer (o200k_base, as gpt-tokenizer
 * counts), so usage and billing reflect what a model would read and write.
 * Short strings recur constantly (verdict blocks of clean samples are
 * identical), so their counts are cached; long ones are counted every time.
 *
 * Text that spells a special token ("<|endoftext|>", "<|im_start|>": chat
 * templates in training data) is counted as the text it is, as the API reads
 * a message's content. The tokenizer refuses such text by default, and every
 * audit of a sample holding one failed.
 */
const cache = new Map<string, number>();

/**
 * The tokenizer package, loaded only should the pre-token pattern ever fail to
 * cut a text (see countBpeTokens): building its tables is ~0.3 s of a thread's
 * CPU, which the rank table (bpe/) spares every thread that counts. `require`
 * because a count is synchronous.
 */
let tokenizer: typeof GptTokenizer | undefined;

/**
 * The tokenizer's own pre-token pattern (o200k_base), sticky: tried at one
 * position of the text, it finds the pre-token the tokenizer finds there.
 */
let preToken: RegExp | undefined;
function preTokenPattern(): RegExp {
  if (!preToken) {
    const { O200K_TOKEN_SPLIT_REGEX } = createRequire(import.meta.url)(
      'gpt-tokenizer/encodingParams/constants',
    ) as { O200K_TOKEN_SPLIT_REGEX: RegExp };
    preToken = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
  }
  return preToken;
}

/**
 * The tokens of pre-tokens seen lately (a word with its leading space, a
 * number, a run of spaces): a direct-mapped table by a hash of the
 * pre-token's chars, read in place in the text (a word found there costs no
 * substring), and behind it a map of the pre-tokens it has pushed out.
 * Empty slots hold "" (a packed array reads faster than one with holes).
 */
const SLOTS = 65_536;
const slotPreToken: string[] = new Array<string>(SLOTS).fill('');
const slotTokens = new Int32Array(SLOTS);
const preTokenCounts = new Map<string, number>();
const MAX_PRE_TOKENS = 65_536;

function preTokenTokens(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  const slot = hash & (SLOTS - 1);
  const known = slotPreToken[slot] as string;
  if (known.length === end - start) {
    let same = true;
    for (let i = 0; i < known.length && same; i++) {
      same = known.charCodeAt(i) === text.charCodeAt(start + i);
    }
    if (same) return slotTokens[slot] as number;
  }
  const piece = text.slice(start, end);
  let tokens = preTokenCounts.get(piece);
  if (tokens === undefined) {
    tokens = preTokenCount(o200kTable(), piece);
    if (preTokenCounts.size >= MAX_PRE_TOKENS) preTokenCounts.clear();
    preTokenCounts.set(piece, tokens);
  }
  slotPreToken[slot] = piece;
  slotTokens[slot] = tokens;
  return tokens;
}

/**
 * `countTokens` of the tokenizer, pre-token by pre-token. The tokenizer cuts
 * a text into pre-tokens with one regex (matchAll: a match array, an
 * iterator result and a string per pre-token) and looks each up in its
 * 200k-entry rank table: a quarter of an engine worker's CPU and a fifth of
 * its allocations in a file pass. Here the same regex, sticky, is tested at
 * each pre-token's start (no match array), and the pre-token's count comes
 * from a small table that stays in the CPU's caches: words recur, so most
 * are found there without a substring (3x faster on the bench's texts).
 *
 * The count is the same. The pre-tokens are the tokenizer's: each is the
 * match at the position where the last one ended, and the pattern matches
 * every character (where it would not, or matched nothing, the tokenizer
 * counts the whole text). The tokenizer adds up each pre-token's BPE
 * tokens, and a pre-token counted alone is one pre-token, itself (an
 * alternative that matched none of it in the text matches none of it alone;
 * the one lookahead, `\s+(?!\S)`, takes the same spaces at the end of the
 * piece), so its merge (bpe/count.ts) is what the tokenizer adds for it.
 * tokens.test.ts holds the two equal on real and random text.
 */
function countBpeTokens(text: string): number {
  const pattern = preTokenPattern();
  let count = 0;
  for (let at = 0; at < text.length;) {
    pattern.lastIndex = at;
    if (!pattern.test(text) || pattern.lastIndex <= at) {
      return loadTokenizer().countTokens(text, { disallowedSpecial: new Set() });
    }
    const end = pattern.lastIndex;
    count += preTokenTokens(text, at, end);
    at = end;
  }
  return count;
}

function loadTokenizer(): typeof GptTokenizer {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as typeof GptTokenizer;
  return tokenizer;
}

/**
 * Reads the rank table now, if this thread has not yet (30-40 ms): a server
 * before it listens (an estimate's trial counts on its main thread), a worker
 * that waits for its first batch (see service/runs/builtin-run.ts).
 */
export function warmTokenizer(): void {
  o200kTable();
}

const CACHEABLE_LENGTH = 512;
const MAX_CACHE_ENTRIES = 50_000;

/**
 * BPE merging is quadratic in the length of one pre-token, and a run of
 * letters without spaces (a DNA sequence, base64, a minified blob) is one
 * pre-token: 160k such characters took 24 s. Runs longer than this are
 * counted in pieces of this size. Each cut can only lose the merges across
 * it, about one token per piece: +0.02 % on random DNA, +0.1 % on random
 * letters or base64 (measured), negligible for usage and billing; the count
 * stays deterministic, and text without such runs is counted exactly.
 */
const MAX_RUN = 400;

/**
 * The runs of more than MAX_RUN non-space characters, as [start, end). Such
 * a run covers at least one multiple of MAX_RUN + 1, so only those positions
 * are probed; a probe that lands on a non-space reads out to the run's ends.
 * Ordinary text costs a few char codes per probe instead of one per
 * character (the full scan was a tenth of counting a long text's tokens).
 */
const STRIDE = MAX_RUN + 1;
function longRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  for (let probe = 0; probe < text.length; probe += STRIDE) {
    if (isSpaceCode(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > 0 && !isSpaceCode(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < text.length && !isSpaceCode(text.charCodeAt(end))) end++;
    if (end - start > MAX_RUN) runs.push([start, end]);
    // The next probe past this run: a run is found once, at its first probe.
    while (probe + STRIDE < end) probe += STRIDE;
  }
  return runs;
}

function countInPieces(text: string): number {
  const runs = longRuns(text);
  if (runs.length === 0) return countBpeTokens(text);
  let count = 0;
  let cursor = 0;
  for (const [start, end] of runs) {
    if (start > cursor) count += countBpeTokens(text.slice(cursor, start));
    for (let at = start; at < end; at += MAX_RUN) {
      count += countBpeTokens(text.slice(at, Math.min(at + MAX_RUN, end)));
    }
    cursor = end;
  }
  return cursor < text.length ? count + countBpeTokens(text.slice(cursor)) : count;
}

/** The count, exactly as `countTokens` gives it, without its cache. */
const countUncached = (text: string): number =>
  text.length > CACHEABLE_LENGTH ? countInPieces(text) : countBpeTokens(text);

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > CACHEABLE_LENGTH) return countInPieces(text);
  let count = cache.get(text);
  if (count === undefined) {
    count = countBpeTokens(text);
    if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
    cache.set(text, count);
  }
  return count;
}

/**
 * The counts of the last few samples' texts. A fix reads the sample its
 * audit just counted, and refine audits again the output its fix just
 * audited; a sample's text rarely recurs in another sample, so it stays out
 * of the cache above (it only filled it and the heap). Kept this short, a
 * count never serves another sample.
 */
const recentTexts = new Map<string, number>();
const RECENT_TEXTS = 16;

/**
 * The counts of the texts of the samples about to be read (`countTextsAhead`),
 * each taken out as its sample is read: only that batch is kept, and a
 * candidate counted meanwhile cannot push one out.
 */
const ahead = new Map<string, number>();

/**
 * Counts the texts of the next samples in one go. Counted one at a time,
 * between each sample's checks, the tokenizer's tables (hundreds of
 * thousands of entries) fall out of the CPU's caches and every count runs
 * cold; counted together they stay warm. The counts are the same.
 */
export function countTextsAhead(texts: readonly string[]): void {
  ahead.clear();
  for (const text of texts) {
    if (text.length > 0 && !ahead.has(text)) ahead.set(text, countUncached(text));
  }
}

/** `countTokens` of a sample's text (what a model reads), counted once per pass. */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  let count = recentTexts.get(text);
  if (count === undefined) {
    count = ahead.get(text);
    if (count === undefined) count = countUncached(text);
    else ahead.delete(text);
    if (recentTexts.size >= RECENT_TEXTS) {
      const oldest = recentTexts.keys().next();
      if (!oldest.done) recentTexts.delete(oldest.value);
    }
  } else recentTexts.delete(text);
  recentTexts.set(text, count);
  return count;
}
