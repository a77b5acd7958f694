import type { RankTable } from './rank-table.ts';

/**
 * How many tokens byte-pair encoding makes of one pre-token: tiktoken's
 * merge, which the tokenizer package (gpt-tokenizer) also runs. Its bytes'
 * adjacent pairs are merged lowest rank first (the leftmost of equals), until
 * no adjacent pair is a token. A pre-token that is itself a token is one.
 * Written here because the package builds a 200k-entry Map of strings in
 * every thread before its first count (0.2-0.3 s of a worker's start); this
 * reads the ranks from a table of bytes (rank-table.ts). tokens.test.ts holds
 * the counts equal to the package's on real and random text.
 */

/** The pre-token's UTF-8, reused from one count to the next. */
let utf8 = new Uint8Array(1024);
const encoder = new TextEncoder();
/** Where each part starts, and the rank of each part with the next one merged. */
let starts = new Int32Array(1025);
let ranks = new Float64Array(1025);

/** The rank of the pair of parts from `i` (parts i and i + 1), or Infinity. */
function pairRank(table: RankTable, parts: number, i: number): number {
  if (i + 2 > parts) return Infinity;
  const rank = table.rankOf(utf8, starts[i] as number, starts[i + 2] as number);
  return rank < 0 ? Infinity : rank;
}

/** The tokens of one pre-token. */
export function preTokenCount(table: RankTable, piece: string): number {
  // A UTF-16 unit is at most 3 bytes of UTF-8 (a lone surrogate is written as U+FFFD).
  if (utf8.length < piece.length * 3) utf8 = new Uint8Array(piece.length * 3);
  const length = encoder.encodeInto(piece, utf8).written;
  if (length === 0) return 0;
  // The package looks the pre-token up whole by its string first: a string with a lone
  // surrogate is never one of its keys, whatever its UTF-8.
  if (piece.isWellFormed() && table.rankOf(utf8, 0, length) >= 0) return 1;
  if (length === 1) return 1;
  if (starts.length < length + 1) {
    starts = new Int32Array(length + 1);
    ranks = new Float64Array(length + 1);
  }
  // Parts 0..parts-1; part i is utf8[starts[i]..starts[i + 1]).
  let parts = length;
  for (let i = 0; i <= length; i++) starts[i] = i;
  for (let i = 0; i < parts; i++) ranks[i] = pairRank(table, parts, i);
  for (;;) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = ranks[i] as number;
      if (rank < lowest) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) return parts;
    // Parts at and at + 1 become one: the boundary between them goes.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at + 1, at + 2, parts);
    parts--;
    ranks[at] = pairRank(table, parts, at);
    if (at > 0) ranks[at - 1] = pairRank(table, parts, at - 1);
  }
}
