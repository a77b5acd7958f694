import { AppError, validationError } from '../../../src-shared/errors.ts';
import { Sample } from '../../../src-shared/schemas/sample.ts';
import { instead, isRecord } from './fields.ts';
import { mergeInOrder, passthroughEdits, withPassthrough } from './merge.ts';
import { MAPPERS, mapperFor } from './registry.ts';
import type { ShapeId, ShapeInfo, ShapeMapper } from './types.ts';

/**
 * Dataset shapes: recognise common schemas (GSM8K, MMLU, ARC, ...), map their
 * rows to samples, and write (fixed) samples back in the row's own schema.
 */

export type { ShapeId, ShapeInfo, ShapeMapper } from './types.ts';
export { detectShape, type Detection } from './detect.ts';

/** Every shape, in detection priority order (most specific first). */
export const SHAPES: readonly ShapeInfo[] = MAPPERS.map((mapper) => mapper.info);

/** A built-in shape by id, or a mapper already made (a field mapping's). */
const toMapper = (shape: ShapeId | ShapeMapper): ShapeMapper =>
  typeof shape === 'string' ? mapperFor(shape) : shape;

/** Whether the row has the shape's required fields with the right types. */
export function matchesShape(row: unknown, shape: ShapeId): boolean {
  return isRecord(row) && mapperFor(shape).check(row) === undefined;
}

/**
 * The row as a sample: the shape's fields mapped, every other key carried as
 * passthrough metadata (except keys that would collide with the sample's own
 * fields or with `audit`/`fix`/`reaudit`). Throws AppError('invalid_request')
 * naming the missing or bad field when the row does not fit the shape.
 */
export function rowToSample(row: unknown, shape: ShapeId | ShapeMapper): Sample {
  const mapper = toMapper(shape);
  if (!isRecord(row)) {
    throw new AppError(
      'invalid_request',
      `row does not fit ${mapper.info.label}: the row must be an object, ${instead(row)}`,
    );
  }
  const problem = mapper.check(row);
  if (problem !== undefined) {
    throw new AppError('invalid_request', `row does not fit ${mapper.info.label}: ${problem}`);
  }
  const sample = withPassthrough(mapper.toSample(row), row, mapper.owns);
  const parsed = Sample.safeParse(sample);
  if (!parsed.success) throw validationError(parsed.error, `${mapper.info.label} sample`);
  return parsed.data;
}

/**
 * The original row with the sample's (fixed) values written back into the
 * fields the shape maps, and the passthrough keys the sample changed (a
 * person's edit of a metadata field: `passthroughEdits`); every other key is
 * kept untouched, in its original place. Throws AppError('invalid_request')
 * when the sample cannot be written in that schema (e.g. a conversation
 * sample for a GSM8K row).
 */
export function sampleToRow(
  sample: Sample,
  original: Record<string, unknown>,
  shape: ShapeId | ShapeMapper,
): Record<string, unknown> {
  const mapper = toMapper(shape);
  return mergeInOrder(original, {
    ...passthroughEdits(sample, original, mapper.owns),
    ...mapper.toRow(sample, original),
  });
}
