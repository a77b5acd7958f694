import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';

/** A mapping in one line for the dataset's header: `text ← original · answer ← answer (letter)`. */
export function describeMapping(mapping: FieldMapping): string {
  const parts: string[] = [];
  for (const [role, source] of Object.entries(mapping.fields)) {
    const from =
      typeof source === 'string'
        ? source
        : Array.isArray(source)
          ? source.join(' + ')
          : Object.entries(source)
              .map(([name, to]) => `${name}→${to}`)
              .join(', ');
    const form =
      role === 'answer' && mapping.answer_form ? ` (${mapping.answer_form.replace('_', '-')})` : '';
    parts.push(`${role} ← ${from}${form}`);
  }
  return parts.join(' · ');
}
