import type { SourceField } from '../../../src-shared/schemas/mapping.ts';
import { isRecord } from '../shapes/fields.ts';
import type { Row } from '../shapes/types.ts';

/** Nested objects are listed this many levels deep; deeper ones are one field. */
const MAX_DEPTH = 4;
const SAMPLE_CHARS = 80;

type Kind = SourceField['kind'];

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isRecord(value)) return 'object';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'mixed';
}

function sampleOf(value: unknown): string {
  // JSON.stringify gives undefined (not a string) for undefined and functions.
  const text =
    typeof value === 'string'
      ? value
      : value === undefined || typeof value === 'function'
        ? String(value)
        : JSON.stringify(value);
  return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS - 1)}…` : text;
}

/** A key that reads as text (four words or more, or longer than a name runs), not as a name. */
const textKey = (key: string): boolean => key.length > 64 || key.trim().split(/\s+/).length >= 4;

/**
 * A nested object keyed by its values, not by field names (TruthfulQA's
 * `mc1_targets`: each answer a key, its label the value): one field, whose
 * keys are data, not a field each.
 */
const keyedByText = (value: Record<string, unknown>): boolean => Object.keys(value).some(textKey);

/**
 * The fields of a file's first rows, as the import preview lists them: every
 * key in first-seen order, nested objects as dotted paths (`meta.question`),
 * arrays and objects keyed by text (answers as keys) as one field; each with
 * what it holds, a sample value (the first non-empty one) and how many rows
 * have it.
 */
export function fieldsOf(rows: readonly Row[]): SourceField[] {
  const fields = new Map<string, SourceField & { empty: boolean }>();
  const visit = (value: unknown, path: string, depth: number): void => {
    // A row ({} included) is never a field itself: an empty path maps nothing.
    if (depth === 0 && !isRecord(value)) return;
    if (
      isRecord(value) &&
      (depth === 0 || (depth < MAX_DEPTH && Object.keys(value).length > 0 && !keyedByText(value)))
    ) {
      for (const [key, inner] of Object.entries(value)) {
        visit(inner, path === '' ? key : `${path}.${key}`, depth + 1);
      }
      return;
    }
    const kind = kindOf(value);
    const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
    const field = fields.get(path);
    if (!field) {
      fields.set(path, { path, kind, sample: sampleOf(value), rows: 1, empty });
      return;
    }
    field.rows++;
    if (field.kind !== kind && kind !== 'null') field.kind = field.kind === 'null' ? kind : 'mixed';
    if (field.empty && !empty) Object.assign(field, { sample: sampleOf(value), empty });
  };
  for (const row of rows) visit(row, '', 0);
  return [...fields.values()].map(({ path, kind, sample, rows: count }) => ({
    path,
    kind,
    sample,
    rows: count,
  }));
}
