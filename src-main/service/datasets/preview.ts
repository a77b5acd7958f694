import type {
  ImportPreview,
  ImportSource,
  PreviewRow,
  ShapeId,
} from '../../../src-shared/owner/datasets.ts';
import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import { fieldsOf } from '../../engine/mapping/index.ts';
import { detectHead, resolveRowMapping, samplesOfRow, valuesOf } from '../../engine/rows/index.ts';
import { SHAPES } from '../../engine/shapes/index.ts';
import { readHead } from '../samples/read-samples.ts';
import { namingTheFile, resolveSource, type Uploads } from './source.ts';

/** Rows of the preview mapped to samples for the import dialog. */
export const PREVIEW_ROWS = 20;

export const SHAPE_LIST: ImportPreview['shapes'] = SHAPES.map((info) => ({
  id: info.id,
  label: info.label,
  task_type: info.taskType,
}));

/**
 * The first rows of a file, its fields (dotted paths, each with a sample),
 * the shape they have (or the one forced), the field mapping in force (the
 * one given; a shape's own, pre-filled for the user to change; or for a file
 * no shape matches, a guess from the field names), and the first
 * PREVIEW_ROWS mapped with it: each as its sample or the reason it cannot be
 * one. `mapped` counts the preview rows that map: the import is offered only
 * when some do.
 */
export async function importPreview(
  input: {
    source: ImportSource;
    shape?: ShapeId | undefined;
    mapping?: FieldMapping | undefined;
    paths?: OasstPaths | undefined;
  },
  uploads: Uploads,
): Promise<ImportPreview> {
  const file = await resolveSource(input.source, uploads);
  const head = await readHead(file.path, file.format).catch((error: unknown) => {
    throw 'upload_id' in input.source ? namingTheFile(error, file) : error;
  });
  const detection = detectHead(head);
  const mapping = resolveRowMapping(head, {
    shape: input.mapping ? undefined : input.shape,
    mapping: input.mapping,
    guess: true,
    // Every path applies to trees only: another shape chosen meanwhile reads rows whole.
    paths:
      !input.mapping && (input.shape ?? detection?.shape) === 'oasst' ? input.paths : undefined,
  });
  const rows = head
    .slice(0, PREVIEW_ROWS)
    .flatMap((result): PreviewRow[] => {
      if (!('value' in result)) {
        return [{ row: result.row, path: null, original: null, sample: null, error: result.error }];
      }
      if (mapping === null) {
        return [
          {
            row: result.row,
            path: null,
            original: result.value,
            sample: null,
            error: 'no known dataset shape matches these rows: say which fields fill which roles',
          },
        ];
      }
      // A tree read along every path shows each path as a row of its own: `2 of 5`.
      return samplesOfRow(mapping, result).map((item, i): PreviewRow => {
        if ('error' in item) {
          const { row, value } = result;
          return { row, path: null, original: value, sample: null, error: item.error };
        }
        const path = item.path ? `${i + 1} of ${item.path.of}` : null;
        return { row: item.row, path, original: item.original, sample: item.sample, error: null };
      });
    })
    .slice(0, PREVIEW_ROWS);
  return {
    file_name: file.fileName,
    format: file.format,
    bytes: file.bytes,
    detected: detection?.shape ?? null,
    confidence: detection?.confidence ?? 0,
    candidates: detection?.candidates ?? [],
    shape: mapping?.shape ?? null,
    mapping: mapping?.mapping ?? null,
    guessed: mapping?.guessed ?? false,
    paths: mapping?.shape === 'oasst' ? (mapping.tree ? 'all' : 'best') : null,
    fields: fieldsOf(valuesOf(head)),
    mapped: rows.filter((row) => row.sample !== null).length,
    rows,
    shapes: SHAPE_LIST,
  };
}
