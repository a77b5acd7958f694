import type { OperationResult } from '../contract.ts';

/**
 * Parts of one request, run separately over consecutive slices of its
 * samples, as one result: data (and a fix's audits) concatenated in order,
 * counts added, usage merged. The engine treats every sample on its own and
 * usage is a sum, so this equals the result of running the whole at once.
 */
export function mergeResults(parts: readonly OperationResult[]): OperationResult {
  const [first, ...rest] = parts;
  if (!first) throw new Error('mergeResults: no parts');
  for (const part of rest) {
    // One push per item: spreading a large part would overflow the argument list.
    for (const sample of part.data) first.data.push(sample);
    if (first.operation === 'fix' && part.operation === 'fix') {
      for (const audits of part.audits) first.audits.push(audits);
    }
    first.usage.merge(part.usage);
    const counts = first.counts as unknown as Record<string, number>;
    for (const [name, n] of Object.entries(part.counts)) counts[name] = (counts[name] ?? 0) + n;
  }
  return first;
}
