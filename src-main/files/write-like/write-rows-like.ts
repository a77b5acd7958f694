import { csvDelimiterForPath, formatFromPath, type FileFormat } from '../format.ts';
import { writeText } from '../write/text.ts';
import { writeRowsWhole, type WriteOptions } from '../write/temp-file.ts';
import { writeRows } from '../write/write-rows.ts';
import { jsonlLinesLike } from './jsonl.ts';
import type { SourceLayout } from './layout.ts';
import type { SourcedRow } from './sourced-row.ts';

type Row = Record<string, unknown>;

/** Writes the rows to a (temporary) file, counting them. */
type WriteLike = (
  path: string,
  rows: AsyncIterable<SourcedRow>,
  counter: { rows: number },
) => Promise<void>;

/**
 * Writes rows back in the source's own form when the output format is the
 * source's: an unchanged JSON Lines line or CSV record is its source text,
 * byte for byte; a changed line keeps its key order, spacing and escapes
 * around the values that changed (`spliceJsonLine`); a changed CSV record
 * keeps its other cells and their quoting (`encodeCsvRecordLike`); Parquet is
 * written with the source's schema. In another format (or a JSON array) the
 * rows are written as `writeRows` writes any rows; so is a CSV whose name asks
 * for other separators than its source's (a TSV source to `.csv`, a CSV source
 * to `.tsv`). Columns a row has beyond the source's (the verdict columns) are
 * appended. The file appears whole or not at all.
 */
export async function writeRowsLike(
  path: string,
  format: FileFormat,
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout | null,
  options: WriteOptions = {},
): Promise<{ rows: number; bytes: number }> {
  const writeLike =
    layout?.format === format && separatorFits(layout, path) ? writerLike(layout) : undefined;
  if (!writeLike) return writeRows(path, format, values(rows), options);
  return writeRowsWhole(path, (partial, counter) => writeLike(partial, rows, counter), options);
}

/**
 * Whether a CSV written like its source keeps what the target's name says:
 * tabs in `.tsv` only, none in `.csv`; another name (`clean.txt`) keeps the
 * source's separator.
 */
function separatorFits(layout: SourceLayout, path: string): boolean {
  if (layout.format !== 'csv' || formatFromPath(path) !== 'csv') return true;
  const source = layout.csv?.delimiter ?? ',';
  return (source === '\t') === (csvDelimiterForPath(path) === '\t');
}

/** How to write rows like a source with this layout; undefined when only plain writing can. */
function writerLike(layout: SourceLayout): WriteLike | undefined {
  switch (layout.format) {
    case 'jsonl':
      return (path, rows, counter) => writeText(path, jsonlLinesLike(rows, layout, counter));
    // The CSV and Parquet writers' modules load their libraries: loaded when one writes.
    case 'csv':
      return async (path, rows, counter) => {
        const { csvLinesLike } = await import('./csv.ts');
        await writeText(path, csvLinesLike(rows, layout, counter));
      };
    case 'parquet': {
      const { parquet } = layout;
      if (!parquet) return undefined;
      return async (path, rows, counter) => {
        const { writeParquetLike } = await import('./parquet.ts');
        await writeParquetLike(path, parquet, values(rows), counter);
      };
    }
    default:
      // A JSON array: its rows have no source text of their own to keep.
      return undefined;
  }
}

async function* values(rows: AsyncIterable<SourcedRow>): AsyncGenerator<Row> {
  for await (const row of rows) yield row.value;
}
