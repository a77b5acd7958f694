import { parquetSchema, type SchemaElement, type SchemaTree } from 'hyparquet';
import { AppError } from '../../../src-shared/errors.ts';
import { openParquet } from '../read/parquet.ts';

/** The source's schema: hyparquet's schema elements, root first, depth first, as JSON values. */
export interface ParquetLayout {
  schema: SchemaElement[];
}

export async function readParquetLayout(path: string): Promise<ParquetLayout> {
  const { metadata } = await openParquet(path);
  return { schema: metadata.schema.map(plainElement) };
}

/**
 * A copy without the keys hyparquet leaves undefined, and without a logical
 * type it does not know (it keeps those as raw Thrift fields), so the layout
 * survives JSON as it is.
 */
function plainElement(element: SchemaElement): SchemaElement {
  const { logical_type: logical, ...rest } = element;
  const copy: SchemaElement = definedOnly(rest);
  if (typeof logical?.type === 'string') copy.logical_type = definedOnly(logical);
  return copy;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The layout's schema as hyparquet's tree; a layout that is not a schema is refused. */
export function schemaTree(layout: ParquetLayout): SchemaTree {
  try {
    const tree = parquetSchema(layout);
    if (tree.count !== layout.schema.length) throw new Error('elements left over');
    return tree;
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `the source's Parquet layout is not a schema (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}
