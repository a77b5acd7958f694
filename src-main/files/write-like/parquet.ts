import type { SchemaElement, SchemaTree } from 'hyparquet';
import { schemaFromColumnData } from 'hyparquet-writer';
import { AppError } from '../../../src-shared/errors.ts';
import { parquetType, writeParquetFile } from '../write/parquet.ts';
import { spool, type Spooled, type ValueKind } from '../write/spool.ts';
import { schemaTree, type ParquetLayout } from './parquet-layout.ts';
import { compile, Problem, type Convert } from './parquet-values.ts';

/**
 * Parquet written "like" the file its rows came from: with that file's schema,
 * so an export keeps INT64, FLOAT, timestamps, lists and structs instead of
 * the types `writeParquet` would guess from JSON values.
 *
 * Each column's values are converted back to its schema node's type
 * (`parquet-values.ts`); a value that does not fit is refused, naming the row
 * and column.
 *
 * Columns hyparquet-writer cannot write with their source schema are written
 * with the type `writeParquet` infers from the values instead:
 * - INT96 (legacy timestamps): hyparquet-writer has no INT96 encoder;
 * - BSON and INTERVAL: hyparquet cannot read them either;
 * - 2-level lists and repeated fields outside a LIST or MAP (legacy files):
 *   hyparquet-writer's level encoder only walks 3-level lists and maps;
 * - maps whose entries are not named `key` and `value`;
 * - VARIANT anywhere but as a top-level column (hyparquet-writer encodes
 *   variants per top-level column only).
 * Keys of the rows that the schema lacks (verdict columns) become extra
 * top-level columns after the source's, typed the same way.
 *
 * Not kept: key-value metadata (pandas' and Arrow's describe the source's
 * columns, which extra columns would contradict), compression, encodings,
 * row group sizes, and sub-millisecond timestamp digits (hyparquet reads
 * timestamps as Dates).
 */

type Row = Record<string, unknown>;

/**
 * Writes rows with the layout's schema: its columns in order, then the
 * rows' other keys. A key a row lacks is null. Rows are spooled first (to
 * learn the extra columns' types) and written one row group at a time.
 */
export async function writeParquetLike(
  path: string,
  layout: ParquetLayout,
  rows: AsyncIterable<Row>,
  counter: { rows: number },
): Promise<void> {
  const spooled = await spool(rows);
  try {
    const root = schemaTree(layout);
    const columns = planColumns(root, spooled);
    await writeParquetFile(path, {
      columns: columns.map(({ name }) => ({ name })),
      schema: [
        { ...root.element, num_children: columns.length },
        ...columns.flatMap((column) => column.schema),
      ],
      rows: (async function* () {
        for await (const row of spooled.rows()) {
          yield convertRow(columns, row, counter.rows + 1);
          counter.rows++;
        }
      })(),
    });
  } finally {
    await spooled.dispose();
  }
}

interface Column {
  name: string;
  /** Its schema elements, the column's own first. */
  schema: SchemaElement[];
  convert: Convert;
}

function planColumns(root: SchemaTree, spooled: Spooled): Column[] {
  const columns = root.children.map((node): Column => {
    const { name } = node.element;
    const convert = compile(node, true);
    return convert
      ? { name, schema: subtree(node), convert }
      : inferred(name, spooled.kinds.get(name));
  });
  const known = new Set(columns.map(({ name }) => name));
  for (const key of spooled.keys) {
    if (!known.has(key)) columns.push(inferred(key, spooled.kinds.get(key)));
  }
  return columns;
}

function subtree(node: SchemaTree): SchemaElement[] {
  return [{ ...node.element }, ...node.children.flatMap(subtree)];
}

/** A column typed from its values, as `writeParquet` types every column. */
function inferred(name: string, kinds: ReadonlySet<ValueKind> | undefined): Column {
  const [, element] = schemaFromColumnData({
    columnData: [{ name, data: [], type: parquetType(kinds) }],
  });
  if (!element) throw new AppError('internal_error', `no schema for the column "${name}"`);
  return { name, schema: [element], convert: (value) => value ?? null };
}

function convertRow(columns: readonly Column[], row: Row, at: number): Row {
  const out: Row = {};
  for (const { name, convert } of columns) {
    try {
      out[name] = convert(row[name]);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      throw new AppError(
        'invalid_request',
        `cannot write row ${at}: column "${name}${error.at}": ${error.message}`,
      );
    }
  }
  return out;
}
