import { AppError } from '../../src-shared/errors.ts';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import { detectShape, rowToSample, type Detection, type ShapeId } from '../engine/shapes/index.ts';
import { mapRow, readRows, type FileFormat, type RowResult } from './files/index.ts';

/**
 * A dataset file as samples: rows are read as a stream, the shape is
 * detected on the first rows (shared by the CLI and the app's import), and
 * rows that are already samples (`task_type` set) are used as they are. Bad
 * rows come out as errors with their row number; nothing is dropped silently.
 */

export type SampleRow =
  | { row: number; sample: Sample; original: Record<string, unknown> }
  | { row: number; error: string };

export interface ReadSamplesOptions {
  format?: FileFormat | undefined;
  /** Force a shape instead of detecting it. */
  shape?: ShapeId | undefined;
  signal?: AbortSignal | undefined;
  /** Told the detection once the first rows are in. */
  onDetected?: ((detection: Detection | null, shape: ShapeId) => void) | undefined;
}

export const DETECTION_ROWS = 100;

const hasTaskType = (value: Record<string, unknown>): boolean =>
  typeof value.task_type === 'string';

/**
 * The shape of the first rows; for CSV rows with cells read as JSON, as
 * their text too, when the rows as read fit no shape (see `mapRow`).
 */
export function detectHead(head: readonly RowResult[]): Detection | null {
  const read = head.flatMap((r) => ('value' in r ? [r.value] : []));
  const detection = detectShape(read);
  if (detection || !head.some((r) => 'text' in r && r.text)) return detection;
  return detectShape(head.flatMap((r) => ('value' in r ? [r.text ?? r.value] : [])));
}

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
  const values = head.flatMap((r) => ('value' in r ? [r.value] : []));
  const detection = detectHead(head);
  const shape = options.shape ?? detection?.shape;
  if (!shape) {
    if (values.length === 0 && head.length === 0) return;
    throw new AppError(
      'invalid_request',
      values.length === 0
        ? `no readable rows in the first ${head.length} of ${path}`
        : `the rows of ${path} match no known dataset shape (GSM8K, MMLU, ARC, CommonsenseQA, ` +
            `HellaSwag, TruthfulQA, Alpaca, ShareGPT, OpenAI chat, OpenAssistant, plain text, ` +
            `or samples with task_type); first row keys: ${Object.keys(values[0] ?? {}).join(', ')}`,
    );
  }
  options.onDetected?.(detection, shape);

  const toSample = (result: RowResult): SampleRow => {
    if (!('value' in result)) return result;
    try {
      const { mapped, row } = mapRow(result, (value) =>
        rowToSample(value, hasTaskType(value) ? 'sample' : shape),
      );
      return { row: result.row, sample: mapped, original: row };
    } catch (error) {
      if (error instanceof AppError) return { row: result.row, error: error.message };
      throw error;
    }
  };
  for (const result of head) yield toSample(result);
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    yield toSample(next.value);
  }
}
