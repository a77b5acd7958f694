import type { Migration } from '../../migrate.ts';

/**
 * A row's search text became every field of the row (its original as read)
 * where it was the grid's two lines: every dataset's index is built again
 * from its first row (a `through` of -1 makes a new table, see
 * store/search-index.ts); searches scan the rows meanwhile.
 */
export const everyField: Migration = {
  version: 2,
  name: 'search every field: rebuild every index',
  up: `UPDATE indexed SET through = -1, complete = 0`,
};
