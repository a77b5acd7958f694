import { z } from 'zod';
import { rowIndices } from '../schemas/row-indices.ts';
import { AuditBlock, FixBlock } from '../schemas/blocks.ts';
import { FieldMapping, OasstPaths, SourceField } from '../schemas/mapping.ts';
import { TaskType } from '../schemas/sample.ts';
import { FILE_FORMATS } from '../file-formats.ts';

/** Datasets in the app: imported files kept in SQLite with their original rows. */

export const FileFormat = z.enum(FILE_FORMATS);

export const SHAPE_IDS = [
  'sample',
  'gsm8k',
  'mmlu',
  'arc',
  'commonsenseqa',
  'hellaswag',
  'truthfulqa_mc',
  'alpaca',
  'sharegpt',
  'openai_chat',
  'oasst',
  'text',
  'custom',
] as const;
export const ShapeId = z.enum(SHAPE_IDS);
export type ShapeId = z.infer<typeof ShapeId>;

/** Where an import reads from: a path in main (Electron) or an uploaded file (browser). */
export const ImportSource = z.union([
  z.strictObject({ path: z.string().min(1) }),
  z.strictObject({ upload_id: z.string().min(1) }),
]);
export type ImportSource = z.infer<typeof ImportSource>;

export const PreviewRow = z.object({
  row: z.int(),
  path: z
    .string()
    .nullable()
    .meta({ description: 'Read along every path: which path of the tree (`2 of 5`).' }),
  original: z.record(z.string(), z.unknown()).nullable(),
  sample: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});

export type PreviewRow = z.infer<typeof PreviewRow>;

export const ImportPreview = z.object({
  file_name: z.string(),
  format: FileFormat,
  bytes: z.int(),
  detected: ShapeId.nullable(),
  confidence: z.number(),
  candidates: z.array(z.object({ shape: ShapeId, matched: z.int() })),
  shape: ShapeId.nullable().meta({
    description: 'The shape the preview rows were mapped with (`custom`: a field mapping).',
  }),
  mapping: FieldMapping.nullable().meta({
    description:
      'The mapping in force: the one given, a shape’s own (pre-filled), or a guess from the field names.',
  }),
  guessed: z.boolean().meta({ description: 'The mapping is a guess from the field names.' }),
  paths: OasstPaths.nullable().meta({
    description: 'OpenAssistant trees: read along the best path or every path; null otherwise.',
  }),
  fields: z.array(SourceField).meta({ description: 'The fields of the first rows.' }),
  mapped: z.int().meta({ description: 'How many preview rows the mapping maps.' }),
  rows: z.array(PreviewRow),
  shapes: z.array(z.object({ id: ShapeId, label: z.string(), task_type: TaskType })),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const DatasetSummary = z.object({
  id: z.string(),
  name: z.string(),
  file_name: z.string(),
  format: FileFormat,
  shape: ShapeId,
  mapping: FieldMapping.nullable().meta({
    description: 'The field mapping the rows were read with; null for rows that are samples.',
  }),
  paths: OasstPaths.nullable().meta({
    description: 'OpenAssistant trees: read along the best path or every path; null otherwise.',
  }),
  task_types: z.array(TaskType),
  rows: z.int(),
  errors: z.int(),
  not_utf8_line: z.int().nullable().meta({
    description:
      'The first line of the source file (JSON Lines, CSV, JSON) holding bytes that are not UTF-8: they are read as U+FFFD (�), and an export writes that in their place. Null when there is none, and for Parquet.',
  }),
  audited: z.int(),
  failed: z.int(),
  changed: z.int(),
  flagged: z.int(),
  accepted: z.int(),
  dropped: z.int(),
  eval_set: z.boolean().meta({
    description: 'An evaluation set: the scans of the other datasets look for its rows.',
  }),
  created_at: z.string(),
  state: z.enum(['importing', 'ready']).meta({
    description:
      'importing: rows are still arriving (they can be read; runs, decisions and exports wait).',
  }),
});
export type DatasetSummary = z.infer<typeof DatasetSummary>;

export const RowFilter = z.strictObject({
  failed_check: z
    .string()
    .optional()
    .meta({ description: 'Rows whose audit failed this check; "*" for any.' }),
  flagged: z.boolean().optional(),
  changed: z.boolean().optional(),
  unverified: z
    .boolean()
    .optional()
    .meta({ description: 'label_correct / answer_correct is null.' }),
  decision: z.enum(['accepted', 'rejected', 'pending', 'dropped']).optional().meta({
    description: '`pending`: a fix not decided yet; `dropped`: rows left out of the export.',
  }),
  issue_code: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Rows whose verdict has an issue with this code.' }),
  severity: z
    .enum(['error', 'warning'])
    .optional()
    .meta({ description: 'With `issue_code`: only as an error, or only as a warning.' }),
  warned_check: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Rows where this check warned.' }),
  warned: z.boolean().optional().meta({ description: 'Rows whose verdict has warnings.' }),
  repeats: z
    .boolean()
    .optional()
    .meta({ description: 'Rows that repeat an earlier one (exact or near duplicates).' }),
  benchmark: z.string().max(200).optional().meta({
    description:
      'Rows the dataset scan found holding items of this benchmark (`gsm8k/test`) or evaluation set (its dataset name): a `contamination` issue naming it.',
  }),
  search: z
    .string()
    .max(500)
    .optional()
    .meta({ description: 'Rows holding this text (any case) in any field of the row.' }),
  search_field: z.string().max(500).optional().meta({
    description:
      'With `search`: only in this field of the row as read (a dotted path, `meta.src`; an array’s items share its path).',
  }),
});
export type RowFilter = z.infer<typeof RowFilter>;

export const SORT_COLUMNS = ['index', 'task_type', 'score', 'status'] as const;

export const RowsQuery = z.strictObject({
  dataset_id: z.string(),
  offset: z.int().min(0),
  limit: z.int().min(1).max(1000),
  filter: RowFilter.default({}),
  sort: z
    .strictObject({ column: z.enum(SORT_COLUMNS), direction: z.enum(['asc', 'desc']) })
    .default({ column: 'index', direction: 'asc' }),
});

/** One grid row: what the table shows, small. */
export const GridRow = z.object({
  index: z.int(),
  source_row: z.int(),
  task_type: TaskType,
  title: z.string().meta({ description: 'The main text: text, context, question or last turn.' }),
  detail: z.string().meta({ description: 'Secondary text: choices, answer, roles.' }),
  passed: z.boolean().nullable(),
  score: z.number().nullable(),
  failed_checks: z.array(z.string()),
  flagged: z.boolean(),
  changed: z.boolean(),
  edited: z.boolean().meta({
    description:
      'The candidate is a person’s edit (re-audited), not the engine’s fix; accepted, the export holds it.',
  }),
  unverified: z.boolean(),
  decision: z.enum(['accepted', 'rejected']).nullable(),
  dropped: z.boolean().meta({ description: 'Left out of the export (undoable).' }),
});
export type GridRow = z.infer<typeof GridRow>;

export const RowsPage = z.object({ total: z.int(), rows: z.array(GridRow) });
export type RowsPage = z.infer<typeof RowsPage>;

export const RowDetail = z.object({
  index: z.int(),
  source_row: z.int(),
  original: z.record(z.string(), z.unknown()),
  sample: z.record(z.string(), z.unknown()),
  audit: AuditBlock.nullable(),
  fix: FixBlock.nullable(),
  reaudit: AuditBlock.nullable(),
  fixed_sample: z.record(z.string(), z.unknown()).nullable(),
  decision: z.enum(['accepted', 'rejected']).nullable(),
  dropped: z.boolean(),
});
export type RowDetail = z.infer<typeof RowDetail>;

export const EditRow = z.strictObject({
  dataset_id: z.string(),
  index: z.int().min(0),
  sample: z.record(z.string(), z.unknown()).meta({
    description: 'The whole sample as edited (its task type’s fields and its metadata).',
  }),
});

export const ImportError = z.object({ row: z.int(), message: z.string() });

/** Two rows a scan took for duplicates that a person says are not ("Keep both"). */
export const KeepBoth = z.strictObject({
  dataset_id: z.string(),
  index: z.int().min(0).meta({ description: 'The row reported as a copy.' }),
  duplicate_of: z
    .int()
    .min(0)
    .meta({ description: 'The row it was said to repeat (its issue’s `ref`).' }),
});

export const Decision = z.strictObject({
  dataset_id: z.string(),
  /** Explicit rows, or every row matching the filter (bulk). */
  indices: rowIndices({ max: 100_000 })
    .optional()
    .meta({
      description:
        'Rows by 0-based index; with `filter` too, the listed rows that match it. An index past ' +
        'the last row is refused (404) and nothing is decided.',
    }),
  filter: RowFilter.optional(),
  decision: z
    .enum(['accepted', 'rejected', 'dropped', 'restored'])
    .nullable()
    .meta({
      description:
        'On the fix: `accepted`, `rejected`, or `null` (pending again). On the row: `dropped` ' +
        '(left out of the export) and `restored` (its undo).',
    }),
});

export const ExportRequest = z.strictObject({
  dataset_id: z.string(),
  format: FileFormat,
  include_verdicts: z.boolean().default(false),
  drop_flagged: z.boolean().default(false),
  /** Electron: where to write (from the save dialog). Browser: omitted; a download link comes back. */
  path: z
    .string()
    .optional()
    .meta({
      description:
        'An absolute path to write the export to (not one of the app’s own `svc*.sqlite*` files); ' +
        'omitted, the export is offered as a download link instead.',
    }),
  overwrite: z
    .boolean()
    .default(false)
    .meta({
      description:
        'Replace the file at `path` if there is one. Without it an existing file is refused, so a ' +
        'mistyped path cannot destroy a file (the app’s save dialog asks first, then sets it).',
    }),
});
export const ExportColumns = z.object({
  rows: z.int().meta({ description: 'The rows an export writes (every row not dropped).' }),
  added: z.array(z.object({ column: z.string(), rows: z.int() })).meta({
    description:
      'Top-level keys only some rows hold (`rows` of them): CSV and Parquet, one set of columns for every row, add them to the others (CSV empty, Parquet null). JSON and JSON Lines keep each row’s own keys.',
  }),
});
export type ExportColumns = z.infer<typeof ExportColumns>;

export const ExportResult = z.object({
  rows: z.int(),
  kept: z
    .array(
      z.object({
        row: z.int().meta({ description: 'The dataset row (`index`, from 0).' }),
        source_row: z
          .int()
          .meta({ description: 'Its row in the source file, as the grid shows it (from 1).' }),
        message: z.string(),
      }),
    )
    .meta({
      description:
        'Rows whose accepted fix could not be written back in the source schema without guessing: exported as they were (the first 100).',
    }),
  kept_rows: z.int().meta({
    description: 'How many rows were exported as they were for that reason (`kept` lists 100).',
  }),
  bytes: z.int(),
  path: z.string().nullable(),
  download_url: z.string().nullable(),
});
export type ExportResult = z.infer<typeof ExportResult>;
