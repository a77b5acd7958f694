import { AppError } from '../../../src-shared/errors.ts';
import { delimiterOf } from './csv-layout.ts';
import { csvRecordFor, encodeCsvRecordLike } from './csv-record.ts';
import type { SourceLayout } from './layout.ts';
import type { SourcedRow } from './sourced-row.ts';

/** Text gathered before it is handed on: fewer, larger writes than one per record. */
const BATCH_CHARS = 1 << 16;

/**
 * CSV written like its source: the header record as it was, the source's
 * newline and separator, and each record as `encodeCsvRecordLike` writes it back (an
 * unchanged record is its source text). Columns the rows have beyond the
 * source's header (the verdict columns) are appended, quoted only where needed.
 */
export async function* csvLinesLike(
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout,
  counter: { rows: number },
): AsyncGenerator<string> {
  const csv = layout.csv;
  if (!csv) throw new AppError('internal_error', 'a CSV layout without its header');
  const newline = layout.newline ?? csv.newline;
  const header = csv.header;
  const delimiter = delimiterOf(csv);
  const known = new Set(header);
  // Extra columns (verdicts) are found on the first row: every exported row has the same ones.
  let extras: string[] | undefined;
  let batch = '';
  for await (const { value, raw, changed } of rows) {
    if (extras === undefined) {
      extras = Object.keys(value).filter((key) => !known.has(key));
      batch +=
        csv.header_raw +
        (extras.length ? delimiter + encodeCsvRecordLike(extras, undefined, delimiter) : '') +
        newline;
    }
    const record =
      !changed && raw !== undefined && raw !== null
        ? raw
        : encodeCsvRecordLike(csvRecordFor(header, value), raw ?? undefined, delimiter);
    const tail = extras.length
      ? delimiter +
        encodeCsvRecordLike(
          extras.map((key) => value[key] ?? null),
          undefined,
          delimiter,
        )
      : '';
    batch += record + tail + newline;
    counter.rows++;
    if (batch.length > BATCH_CHARS) {
      yield batch;
      batch = '';
    }
  }
  if (extras === undefined) batch += csv.header_raw + newline;
  if (batch) yield batch;
}
