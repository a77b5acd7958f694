import type { FieldMapping } from './schemas/mapping.ts';

/**
 * How a mapping is written in one line, for two readers:
 *
 * - `header`, for people (the dataset's header in the app):
 *   `text ← original · answer ← answer (letter)`;
 * - `flags`, as the CLI flags that read rows with it (the CLI's message that
 *   suggests a mapping for a file no shape matches):
 *   `--task-type text --map text=original`.
 */
export type MappingText = 'header' | 'flags';

/** How each text joins several fields, and role values (`from` to `to`) and their pairs. */
const JOINS: Record<MappingText, { fields: string; value: string; values: string }> = {
  header: { fields: ' + ', value: '→', values: ', ' },
  flags: { fields: ',', value: ':', values: ',' },
};

type Source = FieldMapping['fields'][keyof FieldMapping['fields']];

function sourceText(source: NonNullable<Source>, as: MappingText): string {
  const joins = JOINS[as];
  if (typeof source === 'string') return source;
  if (Array.isArray(source)) return source.join(joins.fields);
  return Object.entries(source)
    .map(([from, to]) => `${from}${joins.value}${to}`)
    .join(joins.values);
}

/** A mapping in one line, as `as` says (see MappingText). */
export function describeMapping(mapping: FieldMapping, as: MappingText): string {
  const form = mapping.answer_form?.replace('_', '-');
  const roles = Object.entries(mapping.fields).map(
    ([role, source]) => [role, sourceText(source, as)] as const,
  );
  if (as === 'flags') {
    const flags = roles.map(([role, from]) => `--map ${role}=${from}`);
    if (form) flags.push(`(answers: ${form})`);
    return [`--task-type ${mapping.task_type}`, ...flags].join(' ');
  }
  return roles
    .map(([role, from]) => `${role} ← ${from}${role === 'answer' && form ? ` (${form})` : ''}`)
    .join(' · ');
}
