import { leafText } from '../../../src-shared/row-fields.ts';
import { searchFold } from '../../../src-shared/search-fold.ts';
import type { Db } from '../db.ts';
import { finishImport, insertDataset } from '../datasets.ts';
import { insertRows } from '../datasets-rows.ts';
import type { RowSearch } from '../search-text.ts';

/** A ready dataset `id` of `n` text rows ("Row 0", "Row 1", ...), as an import leaves it. */
export function importTextRows(db: Db, id: string, n: number): void {
  insertDataset(db, { id, name: id, file_name: `${id}.jsonl`, format: 'jsonl', shape: 'text' });
  db.transaction(() =>
    insertRows(
      db,
      id,
      Array.from({ length: n }, (_, i) => ({
        row_index: i,
        source_row: i + 1,
        task_type: 'text',
        search_text: `row ${i}`,
        title: `Row ${i}`,
        detail: '',
        original_json: JSON.stringify({ text: `Row ${i}` }),
        sample_json: JSON.stringify({ task_type: 'text', text: `Row ${i}` }),
      })),
    ),
  )();
  finishImport(db, id, { row_count: n, error_count: 0, task_types: ['text'] });
}

/** A text search as the service makes one for rows that are no tree: every field, lowercased. */
export const everyFieldSearch: RowSearch = {
  leanText: {
    prepare: () => undefined,
    text: (original) => searchFold(leafText(JSON.parse(original))),
  },
};
