import type { RowFilter } from '../../../src-shared/owner/datasets.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { countRows } from '../../store/datasets-rows.ts';
import type { Db } from '../../store/db.ts';
import { commitVersion } from '../../store/commit-version.ts';
import type { RowSearch } from '../../store/search-text.ts';

/**
 * How many rows a filter matches, counted once per state of the database:
 * scrolling a filtered grid asks for page after page of the same filter, and
 * a count over a million rows is the slow part of each. A count is kept
 * until anything is committed (store/commit-version.ts). With no filter the
 * count is the dataset's own row count.
 */

const CACHED_FILTERS = 32;

interface Cache {
  version: string;
  counts: Map<string, number>;
}

const caches = new WeakMap<Db, Cache>();

const isEmpty = (filter: RowFilter): boolean =>
  Object.values(filter).every((value: unknown) => value === undefined);

/** `search`: what a text search needs (see store/search-text.ts). */
export function cachedCount(
  db: Db,
  dataset: DatasetRecord,
  filter: RowFilter,
  search: RowSearch,
): number {
  if (isEmpty(filter)) return dataset.row_count;
  const version = commitVersion(db);
  let cache = caches.get(db);
  if (cache?.version !== version) {
    cache = { version, counts: new Map() };
    caches.set(db, cache);
  }
  const key = `${dataset.id}\n${JSON.stringify(filter, Object.keys(filter).sort())}`;
  const known = cache.counts.get(key);
  if (known !== undefined) return known;
  const total = countRows(db, dataset.id, filter, search);
  if (cache.counts.size >= CACHED_FILTERS) cache.counts.clear();
  cache.counts.set(key, total);
  return total;
}
