import { choiceLetter } from '../../../../src-shared/letters.ts';

/**
 * Where in the sample an issue points, in words: `turn 2`, `choice B`,
 * `question`; null when it points at the whole sample. Two issues of one code
 * (`repeated_lines` in two turns) read apart by it.
 */
export function issuePlace(path: string | undefined): string | null {
  if (path === undefined || path === '' || path === '/') return null;
  const [head, index] = path.split('/').slice(1);
  if (head === undefined) return null;
  const n = index === undefined ? NaN : Number(index);
  if (head === 'messages' && Number.isInteger(n)) return `turn ${n + 1}`;
  if (head === 'choices' && Number.isInteger(n)) return `choice ${choiceLetter(n)}`;
  return head.replaceAll('_', ' ');
}
