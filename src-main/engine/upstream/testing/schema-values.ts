import fc from 'fast-check';

/**
 * Arbitrary values of a JSON Schema, as a server that obeys structured output
 * may send them: every enum member, integers and numbers anywhere in their
 * range (bounds included), any string, arrays of any allowed size, objects
 * with every required property. Covers the keywords the answer schemas use
 * (type, properties, required, items, enum, const, anyOf, minimum, maximum,
 * minItems, maxItems); anything else is an error, so a schema that grows a new
 * keyword makes the tests say so.
 */

type Schema = Record<string, unknown>;

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'description',
]);

export function valuesOf(schema: Schema): fc.Arbitrary<unknown> {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) throw new Error(`schema-values: keyword "${key}" is not covered`);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(valuesOf));
  if (Array.isArray(schema.type)) {
    return fc.oneof(...(schema.type as unknown[]).map((type) => valuesOf({ ...schema, type })));
  }
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: min ?? -1e9, max: max ?? 1e9 });
    case 'number':
      return fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true });
    case 'string':
      return fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 5000 }));
    case 'array':
      return fc.array(valuesOf((schema.items ?? {}) as Schema), {
        minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
        maxLength: typeof schema.maxItems === 'number' ? schema.maxItems : 10,
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valuesOf(v)])),
      );
    }
    default:
      throw new Error(`schema-values: type ${JSON.stringify(schema.type)} is not covered`);
  }
}

/** Every member of every enum in a schema, with the path to it (to prove each is accepted). */
export function enumsOf(schema: Schema, path = ''): { path: string; values: unknown[] }[] {
  const found: { path: string; values: unknown[] }[] = [];
  if (Array.isArray(schema.enum)) found.push({ path, values: schema.enum as unknown[] });
  for (const branch of (schema.anyOf ?? []) as Schema[]) found.push(...enumsOf(branch, path));
  if (schema.items) found.push(...enumsOf(schema.items as Schema, `${path}/items`));
  for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    found.push(...enumsOf(v, `${path}/${k}`));
  }
  return found;
}
