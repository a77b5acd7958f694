/**
 * The server's message about one field, from a validation error's one-line
 * summary (`invalid X at /contamination/benchmarks: unknown benchmark...`,
 * see src-shared/errors.ts): shown under the field it names. Null when the
 * error is about another field, or is no validation error.
 */
export function fieldMessage(message: string | undefined, pointer: string): string | null {
  if (message === undefined) return null;
  const at = ` at ${pointer}: `;
  const start = message.indexOf(at);
  if (start < 0) return null;
  return message.slice(start + at.length).replace(/ \(and \d+ more\)$/, '');
}
