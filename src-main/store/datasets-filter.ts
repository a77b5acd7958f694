import type { RowFilter, SORT_COLUMNS } from '../../src-shared/owner/datasets.ts';
import { searchFold } from '../../src-shared/search-fold.ts';
import { FIELD_TEXT_FN, SEARCH_TEXT_FN, type IndexedSearch } from './search-text.ts';

/**
 * The grid's filters and sort orders as SQL over `dataset_rows`. Every filter
 * column is in each covering index (migration 3), so a query without a text
 * search reads only the index of its sort order; a text search scans the
 * dataset's rows (the small columns at the front of each, never the JSON).
 */

export type SortColumn = (typeof SORT_COLUMNS)[number];
export interface RowSort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

export interface RowWhere {
  /** `dataset_id = ? AND ...`, to follow WHERE. */
  sql: string;
  params: unknown[];
  /**
   * Whether it reads columns the covering indexes lack: each row's text (its
   * original) for a search, its dataset-check verdicts for a benchmark.
   */
  searches: boolean;
  /**
   * The partial covering index (migration 9) holding every row the filter can
   * match, when one does: its condition is among the clauses, word for word.
   */
  index?: string;
  /**
   * Whether it calls SEARCH_TEXT_FN (a row's text derived from its original),
   * which needs the dataset's search text (store/search-text.ts withSearchText).
   */
  derivesText: boolean;
  /**
   * A text search and nothing else, from the dataset's search index: the
   * matching rows' indices, ascending, read from the index alone with no join
   * back to the rows (measured: a third of the time).
   */
  searchAlone?: { sql: string; params: unknown[] };
}

/**
 * The partial indexes of migration 9 with their conditions, most selective
 * first as datasets usually are (a few rows dropped or decided, most rows
 * changed by a fix): a filter implying several reads the first.
 */
const FILTER_INDEXES = {
  dropped: ['dataset_rows_dropped', 'dropped = 1'],
  decided: ['dataset_rows_decided', 'decision IS NOT NULL'],
  flagged: ['dataset_rows_flagged', 'flagged = 1'],
  failing: ['dataset_rows_failing', "(passed = 0 OR failed_checks != '')"],
  issues: [
    'dataset_rows_with_issues',
    "(error_codes != '' OR warning_codes != '' OR warning_checks != '')",
  ],
  unverified: ['dataset_rows_unverified', 'unverified = 1'],
  changed: ['dataset_rows_changed', 'changed = 1'],
} as const satisfies Record<string, readonly [string, string]>;
type FilterState = keyof typeof FILTER_INDEXES;
const BY_SELECTIVITY = Object.keys(FILTER_INDEXES) as FilterState[];

/** The text a search compares against a row's text (folded alike: src-shared/search-fold.ts). */
export const searchKey = (text: string): string => searchFold(text);

const codePoints = (text: string): number =>
  text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/** The shortest search a trigram index answers (shorter ones scan). */
export const INDEXED_SEARCH_MIN = 3;

/**
 * Searches whose every match is also in the row's stored JSON, lowercased by
 * SQLite (ASCII only): a letter among them (so a match is inside a string
 * value, not a number written another way: `1e3` reads `1000`), and only
 * printable ASCII that JSON writers leave as it is (no quote, backslash or
 * slash, and not `<`, `>`, `&` or `'`, which some escape as `\u003c`).
 * For those, a scan of the wide rows first looks in the raw JSON (SQLite's
 * LIKE, in C) and derives a row's search text (JSON parsed in JavaScript,
 * ten times the cost) only where the raw JSON holds the search. Two
 * characters lowercase to ASCII in JavaScript and not in SQLite (of all of
 * Unicode): the Kelvin sign to `k` and `İ` to `i` and a combining dot, so a
 * search with a `k`, or ending in `i`, is not pre-checked.
 */
const RAW_SAFE =
  /^[a-z0-9 !#$%()*+,\-.:;=?@[\]^_`{|}~]*[a-z][a-z0-9 !#$%()*+,\-.:;=?@[\]^_`{|}~]*$/;

/** The raw pre-check's LIKE pattern, or undefined for a search it does not apply to. */
function rawPattern(search: string): string | undefined {
  if (!RAW_SAFE.test(search) || search.includes('k') || search.endsWith('i')) return undefined;
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `test` (whose parameters are `params`) behind the raw pre-check when it
 * applies. LIKE folds ASCII case as SQLite's lower() does, without a lowered
 * copy of each row (a third of the time of instr(lower(...))). CASE, not
 * AND: SQLite may evaluate an AND's terms either way.
 */
function preChecked(
  search: string,
  test: string,
  params: unknown[],
): { sql: string; params: unknown[] } {
  const pattern = rawPattern(search);
  if (pattern === undefined) return { sql: test, params };
  return {
    sql: `CASE WHEN original_json LIKE ? ESCAPE '\\' THEN ${test} ELSE 0 END`,
    params: [pattern, ...params],
  };
}

/** A wide-row scan's test of a row's derived search text, behind the raw pre-check when safe. */
export function scannedSearch(search: string): { sql: string; params: unknown[] } {
  return preChecked(
    search,
    `instr(${SEARCH_TEXT_FN}(dataset_id, original_json, source_path), ?) > 0`,
    [search],
  );
}

/** The same for a search in one field (its text is part of the row's). */
export function scannedFieldSearch(
  field: string,
  search: string,
): { sql: string; params: unknown[] } {
  return preChecked(search, `instr(${FIELD_TEXT_FN}(original_json, ?), ?) > 0`, [field, search]);
}

/**
 * The WHERE of a filter. `searchIndex`: the dataset's search index (see
 * search-index.ts), complete or being built; a search is answered from it
 * (see indexedMatches), and the rest of the filter from the covering index.
 */
export function rowWhere(
  datasetId: string,
  filter: RowFilter = {},
  searchIndex?: IndexedSearch,
): RowWhere {
  const clauses = ['dataset_id = ?'];
  const params: unknown[] = [datasetId];
  // The states every matching row is in (each implied by the filter), for its partial index.
  const states = new Set<FilterState>();
  const flag = (column: 'flagged' | 'changed' | 'unverified', value: boolean | undefined): void => {
    if (value === undefined) return;
    clauses.push(`${column} = ?`);
    params.push(value ? 1 : 0);
    if (value) states.add(column);
  };
  if (filter.failed_check !== undefined && filter.failed_check !== '') {
    states.add('failing');
    if (filter.failed_check === '*') clauses.push('passed = 0');
    else {
      clauses.push('instr(failed_checks, ?) > 0');
      params.push(`,${filter.failed_check},`);
    }
  }
  flag('flagged', filter.flagged);
  flag('changed', filter.changed);
  flag('unverified', filter.unverified);
  if (filter.decision === 'pending') {
    clauses.push('changed = 1 AND decision IS NULL');
    states.add('changed');
  } else if (filter.decision === 'dropped') {
    clauses.push('dropped = 1');
    states.add('dropped');
  } else if (filter.decision !== undefined) {
    clauses.push('decision = ?');
    params.push(filter.decision);
    states.add('decided');
  }
  if (filter.issue_code !== undefined && filter.issue_code !== '') {
    states.add('issues');
    const code = `,${filter.issue_code},`;
    if (filter.severity === 'error') clauses.push('instr(error_codes, ?) > 0');
    else if (filter.severity === 'warning') clauses.push('instr(warning_codes, ?) > 0');
    else {
      clauses.push('(instr(error_codes, ?) > 0 OR instr(warning_codes, ?) > 0)');
      params.push(code);
    }
    params.push(code);
  }
  if (filter.warned_check !== undefined && filter.warned_check !== '') {
    states.add('issues');
    clauses.push('instr(warning_checks, ?) > 0');
    params.push(`,${filter.warned_check},`);
  }
  if (filter.warned !== undefined) {
    clauses.push(filter.warned ? "warning_codes != ''" : "warning_codes = ''");
    if (filter.warned) states.add('issues');
  }
  if (filter.repeats !== undefined) {
    const repeats =
      "(instr(error_codes, ',exact_duplicate,') > 0 OR instr(error_codes, ',near_duplicate,') > 0)";
    clauses.push(filter.repeats ? repeats : `NOT ${repeats}`);
    if (filter.repeats) states.add('issues');
  }
  // The contamination issues are in the rows' dataset-check verdicts (JSON, in a table of their
  // own, not in the covering indexes): the dataset's are read once, and the rows that hold one of
  // the benchmark's items are looked up by index.
  const benchmark = filter.benchmark !== undefined && filter.benchmark !== '';
  if (benchmark) {
    clauses.push(
      `row_index IN (SELECT c.row_index FROM dataset_row_checks c,
         json_each(c.checks_json, '$.contamination.issues') i
         WHERE c.dataset_id = ? AND json_extract(i.value, '$.benchmark') = ?)`,
    );
    params.push(datasetId, filter.benchmark);
  }
  // The state's condition, stated as the index states it (implied by the filter: no row lost).
  const state = BY_SELECTIVITY.find((name) => states.has(name));
  const [index, condition] = state === undefined ? [] : FILTER_INDEXES[state];
  if (condition !== undefined && !clauses.includes(condition)) clauses.push(condition);
  const search = filter.search === undefined ? '' : searchKey(filter.search);
  const field = search === '' ? '' : (filter.search_field ?? '');
  // A search in one field shorter than a trigram reads that field alone, as it always did.
  const indexed = field === '' || codePoints(search) >= INDEXED_SEARCH_MIN;
  if (search !== '' && searchIndex !== undefined && indexed) {
    const matches = indexedMatches(datasetId, search, searchIndex);
    const alone = clauses.length === 1 && field === '';
    clauses.push(`row_index IN (${matches.sql})`);
    params.push(...matches.params);
    // Limited to one field: the index's rows, each read in that field (the row's JSON).
    if (field !== '') {
      const scanned = scannedFieldSearch(field, search);
      clauses.push(scanned.sql);
      params.push(...scanned.params);
    }
    return {
      sql: clauses.join(' AND '),
      params,
      searches: field !== '' || benchmark,
      derivesText: matches.derivesText,
      index,
      ...(alone ? { searchAlone: matches } : {}),
    };
  }
  if (field !== '') {
    const scanned = scannedFieldSearch(field, search);
    clauses.push(scanned.sql);
    params.push(...scanned.params);
  } else if (search !== '') {
    // Every row's text is derived from its original (see search-text.ts).
    const scanned = scannedSearch(search);
    clauses.push(scanned.sql);
    params.push(...scanned.params);
  }
  return {
    sql: clauses.join(' AND '),
    params,
    searches: search !== '' || benchmark,
    derivesText: search !== '' && field === '',
    index,
  };
}

/** The trigrams a search's text holds (FTS5 strings), at most MATCH_TRIGRAMS of them, spread. */
const MATCH_TRIGRAMS = 12;
function trigramQuery(search: string): string {
  // Code points, as the trigram tokenizer counts characters (not graphemes).
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  const chars = [...search];
  const all = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) all.add(chars.slice(i, i + 3).join(''));
  const distinct = [...all];
  const step = Math.max(1, distinct.length / MATCH_TRIGRAMS);
  const chosen = new Set<string>();
  for (let i = 0; i < distinct.length; i += step) chosen.add(distinct[Math.floor(i)] as string);
  return [...chosen].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * The rows whose text holds the search, from the dataset's search index (in
 * each of its parts, a share of the rows): the trigram table's candidates (every trigram of the
 * search is in the row's text) confirmed against the narrow texts; the narrow
 * texts after the last row with trigrams; the wide rows after the last row
 * with a text (a dataset still being indexed: the rows committed since).
 * Searches under three characters have no trigram and read the narrow texts.
 */
function indexedMatches(
  datasetId: string,
  search: string,
  index: IndexedSearch,
): { sql: string; params: unknown[]; derivesText: boolean } {
  const arms: string[] = [];
  const params: unknown[] = [];
  const trigrams = codePoints(search) >= INDEXED_SEARCH_MIN;
  for (const part of index.parts) {
    if (trigrams) {
      const table = part.fts.split('.').at(-1) ?? part.fts;
      arms.push(
        `SELECT row_index FROM ${part.text} WHERE row_index IN
           (SELECT rowid FROM ${part.fts} WHERE ${table} MATCH ? AND rowid <= ?)
           AND instr(text, ?) > 0`,
      );
      params.push(trigramQuery(search), index.trigramsThrough, search);
    }
    if (!trigrams || !index.complete) {
      // Bounded on both sides: the builders may have gone on since `index` was read.
      arms.push(
        `SELECT row_index FROM ${part.text} WHERE row_index > ? AND row_index <= ?
           AND instr(text, ?) > 0`,
      );
      params.push(trigrams ? index.trigramsThrough : -1, index.textsThrough, search);
    }
  }
  if (!index.complete) {
    const scanned = scannedSearch(search);
    arms.push(
      `SELECT row_index FROM dataset_rows WHERE dataset_id = ? AND row_index > ?
         AND ${scanned.sql}`,
    );
    params.push(datasetId, index.textsThrough, ...scanned.params);
  }
  return { sql: arms.join(' UNION ALL '), params, derivesText: !index.complete };
}

const BY_INDEX = 'dataset_rows_by_index';

/**
 * Where a query reads: the named covering index (in row order: the filter's
 * partial index when it has one), or the table for a text search.
 */
const from = (where: RowWhere, index: string): string =>
  where.searches
    ? 'dataset_rows'
    : `dataset_rows INDEXED BY ${index === BY_INDEX ? (where.index ?? index) : index}`;

/** ORDER BY for a sort: the row index, both in the sort's direction. */
export function orderBy(sort: RowSort): string {
  return `row_index ${sort.direction === 'desc' ? 'DESC' : 'ASC'}`;
}

/** A text search alone (see RowWhere.searchAlone): its count, from the index. */
export function searchAloneCount(alone: NonNullable<RowWhere['searchAlone']>): {
  sql: string;
  params: unknown[];
} {
  return { sql: `SELECT count(*) FROM (${alone.sql})`, params: alone.params };
}

/** A text search alone in row order: its page (LIMIT ? OFFSET ? follow), from the index. */
export function searchAlonePage(
  alone: NonNullable<RowWhere['searchAlone']>,
  direction: 'asc' | 'desc',
): { sql: string; params: unknown[] } {
  return {
    sql: `${alone.sql} ORDER BY 1 ${direction === 'desc' ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
    params: alone.params,
  };
}

/**
 * The table expression to read for a count or a scope: the narrow covering
 * index of row order when the filter can be answered from it, else the table
 * (a text search).
 */
export function source(where: RowWhere): string {
  return from(where, BY_INDEX);
}

/** One part of a sorted page: the rows meeting `cond`, ordered by `key` then row. */
interface Arm {
  index: string;
  key: string;
  cond: string;
  condParams: unknown[];
}

/**
 * The rows of each sort key value set (migration 8). The score and status
 * orders index only the rows that have a score or a status; the rest share
 * one key (2.0, 3) and follow in row order. The partial indexes' conditions
 * are repeated here word for word, so SQLite can use them.
 */
function arms(sort: RowSort, taskTypes: readonly string[]): Arm[] {
  switch (sort.column) {
    case 'index':
      return [{ index: BY_INDEX, key: 'row_index', cond: '1', condParams: [] }];
    case 'score':
      return [
        {
          index: 'dataset_rows_by_score',
          key: 'score_key',
          cond: 'score IS NOT NULL',
          condParams: [],
        },
        { index: BY_INDEX, key: 'row_index', cond: 'score IS NULL', condParams: [] },
      ];
    case 'status':
      return [
        {
          index: 'dataset_rows_by_status',
          key: 'status_rank',
          cond: '(passed IS NOT NULL OR flagged = 1)',
          condParams: [],
        },
        {
          index: BY_INDEX,
          key: 'row_index',
          cond: 'passed IS NULL AND flagged = 0',
          condParams: [],
        },
      ];
    case 'task_type':
      // A dataset has a few task types: one part per type, each in row order.
      return taskTypes.map((type) => ({
        index: BY_INDEX,
        key: 'row_index',
        cond: 'task_type = ?',
        condParams: [type],
      }));
  }
}

/** One part of a sorted page, read in order from its index (LIMIT ? OFFSET ? follow the params). */
export interface PageSegment {
  /** `count(*)` of the part; undefined for the part whose count is the total less the others'. */
  countSql: string | undefined;
  /** The column of `dataset_sort_counts` holding the part's count (every row: no filter). */
  stored?: 'scored' | 'with_status';
  sql: string;
  params: unknown[];
}

/**
 * The parts of a page in a sort's order. Each part is one run of the order
 * (the scored rows by score, then the rest in row order; one task type after
 * another) and is read in order from an index, never sorted whole: the
 * caller counts the parts before the page's offset and reads the part(s) it
 * falls in.
 */
export function pageSegments(
  where: RowWhere,
  sort: RowSort,
  taskTypes: readonly string[],
): PageSegment[] {
  const direction = sort.direction === 'desc' ? 'DESC' : 'ASC';
  const parts = arms(sort, taskTypes);
  const segments = parts.map((part): PageSegment => {
    const cond = part.cond === '1' ? '' : ` AND ${part.cond}`;
    const table = from(where, part.index);
    const order = part.index === BY_INDEX ? '' : `${part.key} ${direction}, `;
    // Counted (in no order) from the filter's partial index, when it has one: its rows only.
    const counted = from(where, where.index === undefined ? part.index : BY_INDEX);
    const stored =
      where.sql !== 'dataset_id = ?'
        ? undefined
        : part.index === 'dataset_rows_by_score'
          ? 'scored'
          : part.index === 'dataset_rows_by_status'
            ? 'with_status'
            : undefined;
    return {
      countSql: `SELECT count(*) FROM ${counted} WHERE ${where.sql}${cond}`,
      ...(stored === undefined ? {} : { stored }),
      sql: `SELECT row_index FROM ${table} WHERE ${where.sql}${cond}
        ORDER BY ${order}row_index ${direction} LIMIT ? OFFSET ?`,
      params: [...where.params, ...part.condParams],
    };
  });
  // The rows outside a partial index (no score, no status) are counted as the total less the rest.
  const last = parts.at(-1);
  if (last && last.index === BY_INDEX && parts.length === 2) {
    const rest = segments[1] as PageSegment;
    segments[1] = { ...rest, countSql: undefined };
  }
  return direction === 'DESC' ? segments.reverse() : segments;
}
