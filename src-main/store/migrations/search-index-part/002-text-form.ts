import type { Migration } from '../../migrate.ts';

/**
 * The form of the texts a part's tables hold (`text_form`; 0: lowercased
 * only, as before; see SEARCH_TEXT_FORM in store/search-index-part.ts). A
 * part whose tables hold another form than the app's empties them and
 * builds them again, as a part of another layout does.
 */
export const textForm: Migration = {
  version: 2,
  name: 'the form of the texts a part holds',
  up: `ALTER TABLE part_layout ADD COLUMN text_form INTEGER NOT NULL DEFAULT 0`,
};
