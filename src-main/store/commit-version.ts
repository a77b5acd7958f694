import type { Db } from './db.ts';
import { plucked } from './statements.ts';

/**
 * A token that moves whenever anything is committed to the database: by
 * another connection (`data_version`) or by this one (`total_changes()`,
 * which `data_version` does not count). A cache of query results on this
 * connection is kept while it stays the same. Cached statements: both are
 * read when the statement runs, not when it is prepared.
 */
export function commitVersion(db: Db): string {
  const dataVersion = plucked(db, 'PRAGMA data_version').get() as number;
  const changes = plucked(db, 'SELECT total_changes()').get() as number;
  return `${dataVersion}:${changes}`;
}
