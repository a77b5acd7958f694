import { readFileSync } from 'node:fs';
import { findShippedFile } from '../shipped-file.ts';
import { decodeRankFile } from './rank-file.ts';
import { RankTable, type RankTableParts } from './rank-table.ts';

/** o200k_base's ranks, shipped beside this module (scripts/build-token-ranks.ts writes them). */
export const O200K_RANK_FILE = 'src-main/engine/bpe/o200k_base.ranks';

let table: RankTable | undefined;

/**
 * The table: the one another thread sent (`adoptO200kTable`), else read the
 * first time this thread counts (25-40 ms), in shared memory so that this
 * thread's workers can adopt it (`o200kTableParts`).
 */
export function o200kTable(): RankTable {
  if (!table) {
    const path = findShippedFile(O200K_RANK_FILE, import.meta.url);
    if (!path)
      throw new Error(`the tokenizer's ranks (${O200K_RANK_FILE}) are missing from this install`);
    table = RankTable.build(decodeRankFile(readFileSync(path)), { shared: true });
  }
  return table;
}

/** The table's shared arrays, for a worker to adopt; built here first if need be. */
export function o200kTableParts(): RankTableParts {
  return o200kTable().parts;
}

/** The table's arrays if this thread has built or adopted it already, else undefined. */
export function o200kTablePartsIfReady(): RankTableParts | undefined {
  return table?.parts;
}

/** Takes the table another thread built (its `o200kTableParts`), unless this thread has one. */
export function adoptO200kTable(parts: RankTableParts): void {
  table ??= RankTable.of(parts);
}
