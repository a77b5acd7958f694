import { z } from 'zod';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * Reading JSON out of a model's answer. With structured output the content is
 * the JSON itself; servers without it (and chatty models) wrap it in prose,
 * code fences or a `<think>` block (whose opening tag some servers drop), so
 * every JSON object in what is left is a candidate, in order: the whole
 * content, fenced blocks, then each balanced object. The caller keeps the last
 * one that passes its schema: a model that quotes the sample (which may hold a
 * verdict-shaped object: prompt injection) gives its own verdict after it.
 */
export function jsonCandidates(content: string): unknown[] {
  let text = content.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const unmatchedClose = text.toLowerCase().lastIndexOf('</think>');
  if (unmatchedClose !== -1) text = text.slice(unmatchedClose + '</think>'.length);
  text = text.trim();
  const whole = tryParse(text);
  if (whole.ok) return [whole.value];
  const candidates: unknown[] = [];
  for (const fence of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) {
    const inner = tryParse((fence[1] ?? '').trim());
    if (inner.ok) candidates.push(inner.value);
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    // A stray "{" in prose opens nothing: look on from the next one.
    if (end === -1) continue;
    const candidate = tryParse(text.slice(start, end + 1));
    if (candidate.ok) candidates.push(candidate.value);
  }
  return candidates;
}

/** The first JSON object of an answer (see `jsonCandidates`). */
export function extractJson(content: string): { ok: true; value: unknown } | { ok: false } {
  const [first] = jsonCandidates(content);
  return first === undefined ? { ok: false } : { ok: true, value: first };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text.startsWith('{')) return { ok: false };
  try {
    return { ok: true, value: parseJsonExact(text) };
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

/**
 * String lengths: OpenAI's strict mode and some grammar compilers refuse them,
 * so the answer schemas state none (prompts.ts clips long texts instead of
 * refusing them); dropped here should a schema ever carry one. Array sizes
 * (`minItems`, `maxItems`) are accepted by OpenAI's strict mode and by
 * llama.cpp's grammars, and are sent.
 */
const DROPPED = new Set(['minLength', 'maxLength']);

/**
 * The JSON Schema for `response_format: {type: 'json_schema', strict: true}`,
 * made from the zod schema that validates the answer: every property
 * required, no additional properties (zod's output mode gives both), enums,
 * numeric ranges and array sizes as the validator checks them; without
 * `$schema` and the safe-integer bounds zod adds to integers.
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
