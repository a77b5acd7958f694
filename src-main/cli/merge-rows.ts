import type { PartReader, PartLine } from './part-reader.ts';

/** A row with the part it came from. */
export interface MergedRow {
  row: PartLine;
  part: PartReader;
}

/** A part's next row: without a promise where its reader holds it (see `nextLineRead`). */
function nextOf(part: PartReader): PartLine | undefined | Promise<PartLine | undefined> {
  const row = part.nextLineRead();
  return row === null ? part.nextLine() : row;
}

/**
 * The rows of parts in position order, `batch` at a time (the last batch
 * may hold fewer): a k-way merge over each part's ascending rows with a
 * binary heap keyed on position, one row per part in memory at a time
 * besides the batch (a thousand shards cost a thousand rows, not the file).
 * Rows are taken without a promise each where their part's reader holds
 * them: one per row was a fifth of the merge's main thread.
 */
export async function* mergeRows(
  parts: readonly PartReader[],
  batch: number,
): AsyncGenerator<MergedRow[]> {
  const heap: MergedRow[] = [];
  for (const part of parts) {
    const row = await part.nextLine();
    if (row) heap.push({ row, part });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  let rows: MergedRow[] = [];
  while (heap.length > 0) {
    const top = heap[0] as MergedRow;
    rows.push(top);
    if (rows.length === batch) {
      yield rows;
      rows = [];
    }
    const next = nextOf(top.part);
    const row = next instanceof Promise ? await next : next;
    if (row) heap[0] = { row, part: top.part };
    else {
      const last = heap.pop() as MergedRow;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
  if (rows.length > 0) yield rows;
}

function siftDown(heap: MergedRow[], start: number): void {
  const key = (i: number): number => (heap[i] as MergedRow).row.position;
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let least = i;
    if (left < heap.length && key(left) < key(least)) least = left;
    if (right < heap.length && key(right) < key(least)) least = right;
    if (least === i) return;
    [heap[i], heap[least]] = [heap[least] as MergedRow, heap[i] as MergedRow];
    i = least;
  }
}
