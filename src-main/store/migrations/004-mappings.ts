import type { Migration } from '../migrate.ts';

/**
 * Any schema in, the same file out. A dataset keeps the field mapping its
 * rows were read with (`mapping_json`, the mapping in force: a built-in
 * shape's own or one made by hand) and what the source file looked like
 * (`layout_json`: its format, newline style, a CSV header's raw text, a
 * Parquet schema), so an export can give back the user's file with only the
 * accepted repairs changed. A CSV row keeps its raw record (`source_raw`);
 * a JSON Lines row needs none, its `original_json` is the line as it was.
 */
export const mappings: Migration = {
  version: 4,
  name: 'field mappings and source layouts',
  up: `
    ALTER TABLE datasets ADD COLUMN mapping_json TEXT CHECK (mapping_json IS NULL OR json_valid(mapping_json));
    ALTER TABLE datasets ADD COLUMN layout_json TEXT CHECK (layout_json IS NULL OR json_valid(layout_json));
    ALTER TABLE dataset_rows ADD COLUMN source_raw TEXT;
  `,
};
