import { AppError } from '../../../src-shared/errors.ts';
import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  fieldsOf,
  guessMapping,
  mappingShape,
  shapeMapping,
  withAnswerForm,
} from '../mapping/index.ts';
import {
  detectShape,
  rowToSample,
  sampleToRow,
  type Detection,
  type ShapeId,
  type ShapeMapper,
} from '../shapes/index.ts';
import {
  oasstPaths,
  writeOasstPaths,
  type PathRepair,
  type TreePath,
} from '../shapes/oasst-paths.ts';
import type { Row } from '../shapes/types.ts';
import { valuesOf, type RowResult } from './row-result.ts';

/**
 * How a file's rows become samples and go back: a built-in shape (rows that
 * carry `task_type` are samples whatever the shape), or a field mapping
 * (every row through it). `mapping` is the mapping in force, for the user to
 * see and keep: a shape's own, the one given, or the guess for a file no
 * shape matches.
 */
export interface RowMapping {
  shape: ShapeId;
  mapping: FieldMapping | null;
  /** True when the mapping is a guess from the field names (no shape matched, none was given). */
  guessed: boolean;
  toSample(row: Row): Sample;
  /** The original row with the sample's values written back; throws an AppError on a conflict. */
  toRow(sample: Sample, original: Row): Row;
  /**
   * Set when each row holds several samples (OpenAssistant trees read along
   * every path): `toSample` and `toRow` do not apply then.
   */
  tree?: TreeMapping | undefined;
}

/** Rows that each hold several samples, and how their repairs go back together. */
export interface TreeMapping {
  /** The samples of a row, each with its route; throws an AppError when the row does not fit. */
  samplesOf(row: Row): TreePath[];
  /** The row with every part's repair written in; `problems[i]`: why part i's was not. */
  toRow(
    original: Row,
    parts: readonly PathRepair[],
  ): { row: Row; problems: (string | undefined)[] };
}

/**
 * The shape of the first rows; for CSV rows with cells read as other than
 * text, as their text too, when the rows as read fit no shape (see `mapRow`).
 */
export function detectHead(head: readonly RowResult[]): Detection | null {
  const detection = detectShape(valuesOf(head));
  if (detection || !head.some((r) => 'text' in r && r.text)) return detection;
  return detectShape(head.flatMap((r) => ('value' in r ? [r.text ?? r.value] : [])));
}

const hasTaskType = (row: Row): boolean => typeof row.task_type === 'string';

function ofShape(shape: ShapeId, mapping: FieldMapping | null): RowMapping {
  const pick = (row: Row): ShapeId => (hasTaskType(row) ? 'sample' : shape);
  return {
    shape,
    mapping,
    guessed: false,
    toSample: (row) => rowToSample(row, pick(row)),
    toRow: (sample, original) => sampleToRow(sample, original, pick(original)),
  };
}

function ofMapping(mapping: FieldMapping, guessed: boolean): RowMapping {
  const mapper: ShapeMapper = mappingShape(mapping);
  return {
    shape: 'custom',
    mapping,
    guessed,
    toSample: (row) => rowToSample(row, mapper),
    toRow: (sample, original) => sampleToRow(sample, original, mapper),
  };
}

export interface MappingWanted {
  shape?: ShapeId | undefined;
  /** OpenAssistant trees: one row per tree along the best path (default), or one per path. */
  paths?: OasstPaths | undefined;
  mapping?: FieldMapping | undefined;
  /** Guess a mapping from the field names when no shape matches (the app's preview does). */
  guess?: boolean | undefined;
}

/**
 * The mapping for a file from its first rows and what the user asked for:
 * their mapping (its answer form detected from the rows when not given), the
 * shape they named or the one detected (with the mapping it stands for), or
 * with `guess` a mapping guessed from the field names. Null when none.
 */
export function resolveRowMapping(
  head: readonly RowResult[],
  wanted: MappingWanted,
): RowMapping | null {
  const mapping = resolveOnePerRow(head, wanted);
  if (wanted.paths !== 'all' || mapping === null) return mapping;
  if (mapping.shape !== 'oasst') {
    throw new AppError(
      'invalid_request',
      'every path applies to OpenAssistant message trees; these rows are read as ' +
        (mapping.shape === 'custom' ? 'a field mapping' : mapping.shape),
    );
  }
  const unused = (): never => {
    throw new AppError('internal_error', 'a tree of paths is read and written as a whole');
  };
  return {
    ...mapping,
    toSample: unused,
    toRow: unused,
    tree: { samplesOf: oasstPaths, toRow: writeOasstPaths },
  };
}

function resolveOnePerRow(head: readonly RowResult[], wanted: MappingWanted): RowMapping | null {
  const rows = valuesOf(head);
  if (wanted.mapping) return ofMapping(withAnswerForm(wanted.mapping, rows), false);
  if (wanted.shape === 'custom') {
    throw new AppError('invalid_request', 'the custom shape needs a field mapping');
  }
  const shape = wanted.shape ?? detectHead(head)?.shape;
  if (shape) {
    const prefill = shapeMapping(shape);
    return ofShape(shape, prefill ? withAnswerForm(prefill, rows) : null);
  }
  if (!wanted.guess) return null;
  const guess = guessMapping(fieldsOf(rows));
  return guess ? ofMapping(withAnswerForm(guess, rows), true) : null;
}
