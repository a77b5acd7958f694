import { countTokens as countBpeTokens } from 'gpt-tokenizer';

/**
 * Token counts with a real BPE tokenizer (o200k_base, via gpt-tokenizer), so
 * usage and billing reflect what a model would read and write. Short strings
 * recur constantly (verdict blocks of clean samples are identical), so their
 * counts are cached; long ones are counted every time.
 */
const cache = new Map<string, number>();
const CACHEABLE_LENGTH = 512;
const MAX_CACHE_ENTRIES = 50_000;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > CACHEABLE_LENGTH) return countBpeTokens(text);
  let count = cache.get(text);
  if (count === undefined) {
    count = countBpeTokens(text);
    if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
    cache.set(text, count);
  }
  return count;
}
