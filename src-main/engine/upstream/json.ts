import { z } from 'zod';

/**
 * Reading JSON out of a model's answer. With structured output the content is
 * the JSON itself; servers without it (and chatty models) wrap it in prose,
 * code fences or a `<think>` block, so the first balanced JSON object is
 * taken from what is left.
 */
export function extractJson(content: string): { ok: true; value: unknown } | { ok: false } {
  const text = content.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const whole = tryParse(text);
  if (whole.ok) return whole;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  if (fenced !== undefined) {
    const inner = tryParse(fenced.trim());
    if (inner.ok) return inner;
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) break;
    const candidate = tryParse(text.slice(start, end + 1));
    if (candidate.ok) return candidate;
  }
  return { ok: false };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text.startsWith('{')) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The index of the `}` closing the object that opens at `start`, or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

/** Size limits: zod checks them after parsing; not every server's strict mode accepts them. */
const DROPPED = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * The JSON Schema for `response_format: {type: 'json_schema', strict: true}`:
 * every property required, no additional properties (zod's output mode gives
 * both), without `$schema`, the safe-integer bounds zod adds to integers and
 * size limits (keywords OpenAI's strict mode and some grammar compilers refuse).
 */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  Reflect.deleteProperty(json, '$schema');
  return strip(json) as Record<string, unknown>;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) >= SAFE_BOUND) {
      continue;
    }
    out[key] = strip(value);
  }
  return out;
}

/** A zod failure in one line, for the model to correct (and for the final error). */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
