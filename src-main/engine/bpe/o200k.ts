import { readFileSync } from 'node:fs';
import { findShippedFile } from '../shipped-file.ts';
import { decodeRankFile } from './rank-file.ts';
import { RankTable } from './rank-table.ts';

/** o200k_base's ranks, shipped beside this module (scripts/build-token-ranks.ts writes them). */
export const O200K_RANK_FILE = 'src-main/engine/bpe/o200k_base.ranks';

let table: RankTable | undefined;

/** The table, read the first time a thread counts (a few milliseconds). */
export function o200kTable(): RankTable {
  if (!table) {
    const path = findShippedFile(O200K_RANK_FILE, import.meta.url);
    if (!path)
      throw new Error(`the tokenizer's ranks (${O200K_RANK_FILE}) are missing from this install`);
    table = new RankTable(decodeRankFile(readFileSync(path)));
  }
  return table;
}
