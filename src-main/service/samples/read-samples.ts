import { AppError } from '../../../src-shared/errors.ts';
import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { fieldsOf, guessMapping } from '../../engine/mapping/index.ts';
import type { ShapeId } from '../../engine/shapes/index.ts';
import type { Route } from '../../engine/shapes/oasst-paths.ts';
import { mapRow, readRows, type FileFormat, type RowResult } from '../../files/index.ts';
import { describeMapping, resolveRowMapping, type RowMapping } from './row-mapping.ts';

export { detectHead } from './row-mapping.ts';

/**
 * A dataset file as samples: rows are read as a stream, the shape is
 * detected on the first rows (shared by the CLI and the app's import) unless
 * a shape or a field mapping is given, and rows that are already samples
 * (`task_type` set) are used as they are (except under a field mapping,
 * which reads every row). Bad rows come out as errors with their row number
 * (and their raw text, where the format has one); nothing is dropped
 * silently.
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
  | { row: number; error: string; raw?: string | undefined };

export interface ReadSamplesOptions {
  format?: FileFormat | undefined;
  /** Force a shape instead of detecting it. */
  shape?: ShapeId | undefined;
  /** Read the rows through this field mapping. */
  mapping?: FieldMapping | undefined;
  /** OpenAssistant trees: a row per tree along the best path (default) or a row per path. */
  paths?: OasstPaths | undefined;
  signal?: AbortSignal | undefined;
  /** Told the mapping once the first rows are in. */
  onMapping?: ((mapping: RowMapping) => void) | undefined;
}

export const DETECTION_ROWS = 100;

export async function* readSamples(
  path: string,
  options: ReadSamplesOptions = {},
): AsyncGenerator<SampleRow> {
  const rows = readRows(path, { format: options.format, signal: options.signal });
  // Read the head by hand: breaking out of a for-await would close the stream.
  const head: RowResult[] = [];
  while (head.length < DETECTION_ROWS) {
    const next = await rows.next();
    if (next.done) break;
    head.push(next.value);
  }
  const mapping = headMapping(path, head, options);
  if (!mapping) return;
  options.onMapping?.(mapping);
  const toSamples = (result: RowResult): SampleRow[] => samplesOfRow(mapping, result);
  for (const result of head) yield* toSamples(result);
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    yield* toSamples(next.value);
  }
}

/**
 * The mapping for a file from its first rows (see readSamples); undefined
 * for an empty file; throws naming the file's fields when nothing maps.
 */
export function headMapping(
  path: string,
  head: readonly RowResult[],
  options: ReadSamplesOptions,
): RowMapping | undefined {
  const values = head.flatMap((r) => ('value' in r ? [r.value] : []));
  const mapping = resolveRowMapping(head, {
    shape: options.shape,
    mapping: options.mapping,
    paths: options.paths,
  });
  if (mapping) return mapping;
  if (values.length === 0 && head.length === 0) return undefined;
  if (values.length === 0) {
    throw new AppError(
      'invalid_request',
      `no readable rows in the first ${head.length} of ${path}`,
    );
  }
  const fields = fieldsOf(values);
  const guess = guessMapping(fields);
  throw new AppError(
    'invalid_request',
    `the rows of ${path} match no known dataset shape (GSM8K, MMLU, ARC, CommonsenseQA, ` +
      `HellaSwag, TruthfulQA, Alpaca, ShareGPT, OpenAI chat, OpenAssistant, plain text, ` +
      `or samples with task_type); their fields: ${fields.map((f) => f.path).join(', ')}. ` +
      `Say which fields fill which roles` +
      (guess ? `, e.g. ${describeMapping(guess)}` : ' with --task-type TYPE --map ROLE=FIELD'),
  );
}

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
      return [{ row: result.row, error: error.message, raw: result.raw }];
    throw error;
  }
}
