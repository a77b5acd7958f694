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

/**
 * A container's own member: a pointer never reaches what it inherits. A
 * `__proto__` key of parsed JSON is an own property (data); read as `node[part]`
 * where it is missing, it was Object.prototype, and a write under it went there.
 */
function member(node: unknown, part: string): unknown {
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
  return (node as Record<string, unknown>)[part];
}

/** Sets `key` as an own data property: assigning `__proto__` would replace the object's prototype. */
function defineKey(parent: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(parent, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function parentOf(root: unknown, pointer: string): { parent: Container; key: string } {
  const parts = parsePointer(pointer);
  const key = parts.pop();
  if (key === undefined) throw new Error('the root cannot be changed in place');
  let node: unknown = root;
  for (const part of parts) {
    node = member(node, part);
    if (node === null || typeof node !== 'object') throw new Error(`no container at ${pointer}`);
  }
  if (node === null || typeof node !== 'object') throw new Error(`no container at ${pointer}`);
  return { parent: node as Container, key };
}

export function getAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const part of parsePointer(pointer)) node = member(node, part);
  return node;
}

export function setAt(root: unknown, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer);
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else defineKey(parent, key, value);
}

/** JSON Patch's `add`: into an array at an index (`-`: at its end), or a key set on an object. */
export function addAt(root: unknown, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer);
  if (!Array.isArray(parent)) defineKey(parent, key, value);
  else if (key === '-') parent.push(value);
  else parent.splice(Number(key), 0, value);
}

export function removeAt(root: unknown, pointer: string): void {
  const { parent, key } = parentOf(root, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else Reflect.deleteProperty(parent, key);
}
