import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultLayout } from './search-index.ts';

describe("a new search index's layout", () => {
  it('takes a part per core but one, at most 8, unless the environment sets it', () => {
    const cores = availableParallelism();
    expect(defaultLayout({}).parts).toBe(Math.max(1, Math.min(8, cores - 1)));
    expect(defaultLayout({ SVC_SEARCH_INDEX_PARTS: '3' }).parts).toBe(3);
    // Out of range or not a number: the default.
    for (const asked of ['0', '9', 'two', ''])
      expect(defaultLayout({ SVC_SEARCH_INDEX_PARTS: asked })).toEqual(defaultLayout({}));
  });
});
