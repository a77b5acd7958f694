/**
 * How the search index shares a dataset's rows among its parts (see
 * search-index.ts): rows in chunks of `chunk`, chunk k in part k mod `parts`,
 * each part a file of its own written by a thread of its own. Round robin
 * rather than one range per part so that every part has work from the first
 * rows of an import on, and the parts advance together: a reader can use
 * what they hold only as one prefix of the rows (`builtThrough`).
 */
export interface IndexLayout {
  parts: number;
  chunk: number;
}

/** At most this many parts: each is a database a reading connection attaches (SQLite allows 10). */
export const MAX_INDEX_PARTS = 8;

export const partOfRow = (layout: IndexLayout, row: number): number =>
  Math.floor(row / layout.chunk) % layout.parts;

/** The first row of the first chunk at or after chunk `from` that is part `part`'s. */
function chunkStartOf(layout: IndexLayout, part: number, from: number): number {
  const ahead = (((part - (from % layout.parts)) % layout.parts) + layout.parts) % layout.parts;
  return (from + ahead) * layout.chunk;
}

/**
 * The first row part `part` has yet to store, when the last it stored is
 * `last` (-1: none). A part stores its chunks in order, each from its first
 * row on, so this is the row after `last` inside a chunk it has begun, else
 * the first row of its next chunk.
 */
export function firstUndone(layout: IndexLayout, part: number, last: number): number {
  const next = last + 1;
  const chunk = Math.floor(next / layout.chunk);
  return chunk % layout.parts === part ? next : chunkStartOf(layout, part, chunk);
}

/**
 * The last row of the prefix of rows every part has stored (-1: none), from
 * each part's last stored row, or `complete` for a part with every row of
 * its chunks stored; `rowCount - 1` once every part is. It may name a row
 * not yet imported: every row up to it that exists is stored, since a part
 * stores its rows in order.
 */
export function builtThrough(
  layout: IndexLayout,
  lasts: readonly (number | 'complete')[],
  rowCount: number,
): number {
  let first = Infinity;
  lasts.forEach((last, part) => {
    if (last !== 'complete') first = Math.min(first, firstUndone(layout, part, last));
  });
  return first === Infinity ? rowCount - 1 : first - 1;
}
