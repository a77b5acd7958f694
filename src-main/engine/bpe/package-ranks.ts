import { createRequire } from 'node:module';

/**
 * o200k_base's tokens as bytes, by rank, from the gpt-tokenizer package: the
 * source of the shipped rank file (scripts/build-token-ranks.ts) and what a
 * test compares it with. The package keeps a token as a string when its bytes
 * are valid UTF-8 and as bytes otherwise, and finds a byte string by that
 * same test: looking bytes up directly (rank-table.ts) finds the same tokens
 * only if the two agree for every token, which this checks. They do not for
 * nine tokens that begin with a byte order mark (EF BB BF): valid UTF-8, kept
 * as bytes, so the package never finds them. They are written empty, found by
 * nobody either, so that the counts stay the package's.
 */
export function o200kTokenBytes(): Uint8Array[] {
  const module = createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/o200k_base') as
    (string | number[])[] | { default: (string | number[])[] };
  const decoder = Array.isArray(module) ? module : module.default;
  const encoder = new TextEncoder();
  return decoder.map((token, rank) => {
    const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
    const text = strictUtf8(bytes);
    if (typeof token !== 'string') return text === null ? bytes : new Uint8Array(0);
    if (text !== token) throw new Error(`o200k_base's token ${rank} is not its own UTF-8`);
    return bytes;
  });
}

/** The text of `bytes` if they are valid UTF-8 (no surrogates, no overlong forms), else null. */
function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
