import type { Migration } from '../migrate.ts';

/**
 * OpenAssistant trees imported along every path: each root-to-leaf path is a
 * row of its own, so several rows share one source row. A row keeps its path
 * (`source_path`, the JSON array of reply indices below the prompt; NULL for
 * a row that is its source row whole), and the dataset how it was read
 * (`paths`: 'best' or 'all'; NULL for every other shape), so an export writes
 * each tree once with the repairs of all its paths.
 */
export const treePaths: Migration = {
  version: 5,
  name: 'rows read along the paths of a tree',
  up: `
    ALTER TABLE dataset_rows ADD COLUMN source_path TEXT CHECK (source_path IS NULL OR json_valid(source_path));
    ALTER TABLE datasets ADD COLUMN paths TEXT CHECK (paths IS NULL OR paths IN ('best', 'all'));
  `,
};
