import { AppError } from '../../../src-shared/errors.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { Route } from '../shapes/oasst-paths.ts';
import { mapRow, type RowResult } from './row-result.ts';
import type { RowMapping } from './row-mapping.ts';

/**
 * A row read as samples: each sample with its row number (and its raw text,
 * where the format has one), or the row's error. Rows that are already
 * samples (`task_type` set) are used as they are (except under a field
 * mapping, which reads every row). Nothing is dropped silently.
 */
export type SampleRow =
  | {
      row: number;
      sample: Sample;
      original: Record<string, unknown>;
      raw?: string | undefined;
      /** Read along every path: the path's route in its tree, and how many paths the row has. */
      path?: { route: Route; of: number } | undefined;
    }
  | {
      row: number;
      error: string;
      raw?: string | undefined;
      /** The row as read, when it was an object that did not map (a write-back keeps it as it is). */
      original?: Record<string, unknown> | undefined;
    };

/** The samples of one row read (several for a tree read along every path), or its error. */
export function samplesOfRow(mapping: RowMapping, result: RowResult): SampleRow[] {
  if (!('value' in result)) return [result];
  try {
    if (mapping.tree) {
      const paths = mapping.tree.samplesOf(result.value);
      return paths.map(({ route, sample }) => ({
        row: result.row,
        sample,
        original: result.value,
        raw: result.raw,
        path: { route, of: paths.length },
      }));
    }
    const { mapped, row } = mapRow(result, (row) => mapping.toSample(row));
    return [{ row: result.row, sample: mapped, original: row, raw: result.raw }];
  } catch (error) {
    if (error instanceof AppError)
      return [{ row: result.row, error: error.message, raw: result.raw, original: result.value }];
    throw error;
  }
}

/** The samples of rows read, in order, in one array (a batch's: a plain loop, no spread per row). */
export function samplesOfRows(mapping: RowMapping, results: readonly RowResult[]): SampleRow[] {
  const out: SampleRow[] = [];
  for (const result of results) {
    const samples = samplesOfRow(mapping, result);
    if (samples.length === 1) out.push(samples[0] as SampleRow);
    else out.push(...samples);
  }
  return out;
}
