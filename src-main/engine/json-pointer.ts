/** RFC 6901 JSON Pointer helpers over plain JSON values. */

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

type Container = Record<string, unknown> | unknown[];

function parentOf(root: unknown, pointer: string): { parent: Container; key: string } {
  const parts = parsePointer(pointer);
  const key = parts.pop();
  if (key === undefined) throw new Error('the root cannot be changed in place');
  let node: unknown = root;
  for (const part of parts) {
    node = (node as Record<string, unknown>)[part];
    if (node === null || typeof node !== 'object') throw new Error(`no container at ${pointer}`);
  }
  return { parent: node as Container, key };
}

export function getAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const part of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function setAt(root: unknown, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer);
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else parent[key] = value;
}

export function removeAt(root: unknown, pointer: string): void {
  const { parent, key } = parentOf(root, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else Reflect.deleteProperty(parent, key);
}
