import type { PartReader, PartLine } from './part-reader.ts';

/** A row with the part it came from. */
export interface MergedRow {
  row: PartLine;
  part: PartReader;
}

/**
 * The rows of parts in position order: a k-way merge over each part's
 * ascending rows with a binary heap keyed on position, one row per part in
 * memory at a time (a thousand shards cost a thousand rows, not the file).
 */
export async function* mergeRows(parts: readonly PartReader[]): AsyncGenerator<MergedRow> {
  const heap: MergedRow[] = [];
  for (const part of parts) {
    const row = await part.nextLine();
    if (row) heap.push({ row, part });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  while (heap.length > 0) {
    const top = heap[0] as MergedRow;
    yield top;
    const row = await top.part.nextLine();
    if (row) heap[0] = { row, part: top.part };
    else {
      const last = heap.pop() as MergedRow;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
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
