import {
  indexField,
  indexLike,
  parseIndex,
  sampleOf,
  stringArrayField,
  stringField,
} from './fields.ts';
import type { Row, ShapeMapper } from './types.ts';

function joinContext(a: string, b: string): string {
  return b === '' ? a : `${a} ${b}`;
}

/**
 * `ctx_a`/`ctx_b` for a new `ctx`, when the original pair made up the original
 * `ctx` (`ctx_a + " " + ctx_b`): the part the new text still starts or ends
 * with is kept and the other part takes the rest; when neither survives,
 * `ctx_a` takes the whole text and `ctx_b` is emptied. Undefined when the row
 * has no consistent pair (then they are left alone).
 */
export function splitContext(original: Row, context: string): Row | undefined {
  const { ctx, ctx_a: a, ctx_b: b } = original;
  if (typeof a !== 'string' || typeof b !== 'string' || ctx !== joinContext(a, b)) return undefined;
  if (context === ctx) return {};
  if (b !== '' && context.endsWith(` ${b}`)) {
    return { ctx_a: context.slice(0, -b.length - 1), ctx_b: b };
  }
  if (b === '') return { ctx_a: context };
  if (context.startsWith(`${a} `)) return { ctx_a: a, ctx_b: context.slice(a.length + 1) };
  return { ctx_a: context, ctx_b: '' };
}

/** HellaSwag: `{ctx, endings, label}`, a stem to be continued by one of the endings. */
export const hellaswagShape: ShapeMapper = {
  info: {
    id: 'hellaswag',
    label: 'HellaSwag',
    taskType: 'multiple_choice',
    description: 'A context (ctx) to be continued by one of the endings; label is the index.',
  },
  owns: ['ctx', 'endings', 'label'],
  check: (row) =>
    stringField(row, 'ctx') ??
    stringArrayField(row, 'endings') ??
    indexField(row, 'label', parseIndex, 'an index (an integer or its text)'),
  toSample: (row) => ({
    task_type: 'multiple_choice',
    context: row.ctx as string,
    choices: [...(row.endings as string[])],
    answer_index: parseIndex(row.label) ?? 0,
    style: 'continuation',
  }),
  toRow(sample, original) {
    const mc = sampleOf(sample, 'multiple_choice', hellaswagShape.info);
    return {
      ...splitContext(original, mc.context),
      ctx: mc.context,
      endings: [...mc.choices],
      label: indexLike(original.label, mc.answer_index),
    };
  },
};
