import type { Sample, TaskType } from '../../../src-shared/schemas/sample.ts';

export type ShapeId =
  | 'sample'
  | 'gsm8k'
  | 'mmlu'
  | 'arc'
  | 'commonsenseqa'
  | 'hellaswag'
  | 'truthfulqa_mc'
  | 'alpaca'
  | 'sharegpt'
  | 'openai_chat'
  | 'oasst'
  | 'text'
  /** A field mapping made by hand (the dataset keeps it), not a built-in shape. */
  | 'custom';

export interface ShapeInfo {
  id: ShapeId;
  label: string;
  taskType: TaskType;
  description: string;
}

/** A dataset row: one JSON object. */
export type Row = Record<string, unknown>;

/**
 * One dataset shape: how to recognise a row, map it to a sample, and write a
 * sample back into the row's own schema.
 */
export interface ShapeMapper {
  readonly info: ShapeInfo;
  /** Keys of the row the mapping reads; every other key is passthrough metadata. */
  readonly owns: readonly string[];
  /**
   * The first reason the row does not have this shape's required fields with
   * the right types (naming the field), or undefined when it does.
   */
  check(row: Row): string | undefined;
  /**
   * Maps a row that passed `check` to the sample's own fields (no passthrough).
   * Throws (via `misfit`) when the contents cannot be expressed as a sample,
   * e.g. an answer key that is not among the labels.
   */
  toSample(row: Row): Sample;
  /**
   * The owned keys of the original row with the sample's values written back.
   * A key mapped to `undefined` is removed from the row.
   */
  toRow(sample: Sample, original: Row): Row;
}
