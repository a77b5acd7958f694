import jsonPatch from 'fast-json-patch';
import type { Change } from '../../src-shared/schemas/blocks.ts';
import { getAt } from './json-pointer.ts';

/**
 * A person's edit of a sample as the `changes` of a fix block: the JSON Patch
 * fast-json-patch finds between the two (add, remove, replace), each with the
 * value it replaced or removed (`old`, read as the operations apply in turn,
 * so array indices are those at that step) and `reason: 'edit'`. Applied in
 * order to the original, they give the edited sample.
 */
export function changesBetween(original: unknown, edited: unknown, reason = 'edit'): Change[] {
  const operations = jsonPatch.compare(original as object, edited as object);
  const working: unknown = structuredClone(original);
  const changes: Change[] = [];
  for (const operation of operations) {
    if (operation.op !== 'add' && operation.op !== 'remove' && operation.op !== 'replace') {
      throw new Error(`an edit is made of add, remove and replace, not ${operation.op}`);
    }
    const change: Change = { op: operation.op, path: operation.path, reason };
    if (operation.op !== 'add') change.old = structuredClone(getAt(working, operation.path));
    if (operation.op !== 'remove') change.value = structuredClone(operation.value);
    jsonPatch.applyOperation(working as object, operation, false, true);
    changes.push(change);
  }
  return changes;
}
