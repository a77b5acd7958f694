import type { Migration } from '../migrate.ts';

/**
 * The first line of a dataset's source file that holds bytes that are not
 * UTF-8 (read as U+FFFD, and so exported), null when there is none or the
 * import did not look (Parquet, and datasets imported before this): the
 * dataset's header and its import report say so, where the bytes were
 * replaced without a word.
 */
export const notUtf8Line: Migration = {
  version: 14,
  name: 'the first line of a source file that is not UTF-8',
  up: `ALTER TABLE datasets ADD COLUMN not_utf8_line INTEGER;`,
};
