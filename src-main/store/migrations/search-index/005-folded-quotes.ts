import type { Migration } from '../../migrate.ts';

/**
 * Searches fold typographic quotes to ASCII ones (src-shared/search-fold.ts),
 * so every index is built again from its first row (the parts empty their
 * tables themselves: their `text_form`); searches scan the rows meanwhile.
 */
export const foldedQuotes: Migration = {
  version: 5,
  name: 'texts with folded quotes: rebuild every index',
  up: `DELETE FROM indexed`,
};
