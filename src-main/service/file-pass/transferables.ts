/**
 * The buffers of a task's result that can move to the receiving thread
 * instead of being copied: its typed arrays, and those of an object it holds
 * (a slice's packed statistics records). Each buffer once (a repeated one is
 * refused).
 */
export function transferablesOf(result: unknown, depth = 1): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (value: unknown, left: number): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const field of Object.values(value)) {
      if (ArrayBuffer.isView(field)) {
        if (field.buffer instanceof ArrayBuffer) out.add(field.buffer);
      } else if (left > 0) visit(field, left - 1);
    }
  };
  visit(result, depth);
  return [...out];
}
