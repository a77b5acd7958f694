import fc from 'fast-check';
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import { prng } from '../../engine/dataset/prng.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import { describe, expect, it } from 'vitest';
import {
  detectJsonStyle,
  spliceJsonLine,
  stringifyInStyle,
  type JsonStyle,
} from './json-splice.ts';

type Json = fc.JsonValue;
type JsonObject = Record<string, Json>;

const compact: JsonStyle = { keySeparator: ':', itemSeparator: ',', asciiOnly: false };
const python: JsonStyle = { keySeparator: ': ', itemSeparator: ', ', asciiOnly: false };
const pythonAscii: JsonStyle = { ...python, asciiOnly: true };
const compactAscii: JsonStyle = { ...compact, asciiOnly: true };

// Python's json.dumps output, pasted: the reference the examples must match.
const PY_LINE =
  '{"name": "Ren\\u00e9", "city": "K\\u00f6ln", "score": 1.0, "tags": ["caf\\u00e9", "na\\u00efve"], "emoji": "\\ud83d\\ude00", "n": 100000.0}';
const PY_LINE_CITY =
  '{"name": "Ren\\u00e9", "city": "Z\\u00fcrich \\ud83d\\ude00", "score": 1.0, "tags": ["caf\\u00e9", "na\\u00efve"], "emoji": "\\ud83d\\ude00", "n": 100000.0}';

/**
 * JSON.parse, minus a V8 bug (Node 24 and later, nodejs/node#63785): once a key
 * `\` has been parsed, an escaped key such as `"\""` at the same place in a
 * later object can come back as `\`, which made these properties flaky. Built
 * from jsonc-parser's tree instead, with keys defined so "__proto__" stays a key.
 */
function parseJson(text: string): Json {
  JSON.parse(text); // throws unless strict JSON
  const build = (node: Node): Json => {
    if (node.type === 'array') return (node.children ?? []).map(build);
    if (node.type !== 'object') return node.value as Json;
    const object: JsonObject = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children as [Node, Node];
      Object.defineProperty(object, key.value as string, {
        value: build(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  };
  return build(parseTree(text)!);
}

/** A parsed copy of `raw` with `change` applied: the "repaired" value. */
function edited(raw: string, change: (value: JsonObject) => void): JsonObject {
  const value = parseJson(raw) as JsonObject;
  change(value);
  return value;
}

describe('detectJsonStyle', () => {
  it.each([
    ['{"a": 1, "b": [1, 2]}', python],
    ['{"a":1,"b":[1,2]}', compact],
    ['{"a": "\\u00e9"}', pythonAscii],
    ['{"a":"\\u00e9","b":"\\u00fc"}', compactAscii],
    ['{"a": "\\u00e9", "b": "é"}', python], // a raw non-ASCII character: not ascii-only
    ['{"a": "\\\\u00e9"}', python], // an escaped backslash, then text
    ['{"a": "\\u0041"}', python], // an escape below U+0080 says nothing
    ['{"a":"x, y: z"}', compact], // separators inside strings do not count
    ['{"a": 1}', python], // a key separator implies the item separator
    ['[1, 2]', python], // and the other way round
    ['{}', compact],
    ['"\\u00e9"', compactAscii],
    ['{"a": 1, "b":2, "c": 3}', python], // the most common spelling wins
    ['{"a": 1, "b": ', python], // broken lines still have a style
  ])('%s', (raw, style) => {
    expect(detectJsonStyle(raw)).toEqual(style);
  });
});

describe('stringifyInStyle', () => {
  const value = { a: 'é😀\ud800', b: [1, null, true], c: { d: -0 } };

  it('writes each style', () => {
    expect(stringifyInStyle(value, compact)).toBe(
      '{"a":"é😀\\ud800","b":[1,null,true],"c":{"d":-0}}',
    );
    expect(stringifyInStyle(value, pythonAscii)).toBe(
      '{"a": "\\u00e9\\ud83d\\ude00\\ud800", "b": [1, null, true], "c": {"d": -0}}',
    );
  });

  it('follows JSON.stringify for values JSON has no text for', () => {
    const odd = {
      when: new Date(0),
      gone: undefined,
      fn: () => 1,
      sparse: Object.assign(new Array<unknown>(3), { 0: 1 }), // [1, hole, hole]
      inf: Infinity,
      boxed: new String('s'),
    };
    expect(stringifyInStyle(odd, compact)).toBe(
      '{"when":"1970-01-01T00:00:00.000Z","sparse":[1,null,null],"inf":null,"boxed":"s"}',
    );
    const own = JSON.parse('{"__proto__": 1}') as unknown;
    expect(stringifyInStyle(own, python)).toBe('{"__proto__": 1}');
  });

  it('writes a BigInt as its digits, as JSON.stringify does with exact-json.ts', () => {
    const value = { id: 1234567890123456789n, n: [-98765432109876543210n] };
    expect(stringifyInStyle(value, compact)).toBe(JSON.stringify(value));
    expect(stringifyInStyle(value, compact)).toBe(
      '{"id":1234567890123456789,"n":[-98765432109876543210]}',
    );
  });

  it('throws where JSON.stringify would', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => stringifyInStyle(loop, compact)).toThrow(TypeError);
    expect(() => stringifyInStyle(undefined, compact)).toThrow(TypeError);
    // The same object twice is not a cycle.
    const shared = { x: 1 };
    expect(stringifyInStyle([shared, shared], compact)).toBe('[{"x":1},{"x":1}]');
  });
});

describe('spliceJsonLine examples', () => {
  it('changes only the changed string of a Python line, ascii-escaped', () => {
    const next = edited(PY_LINE, (v) => (v.city = 'Zürich 😀'));
    expect(spliceJsonLine(PY_LINE, next)).toBe(PY_LINE_CITY);
    expect(spliceJsonLine(PY_LINE, parseJson(PY_LINE))).toBe(PY_LINE);
  });

  it('keeps 1.0, 1e5, \\/ and uppercase escapes where the value is untouched', () => {
    const raw = '{"a": 1.0, "b": 1e5, "c": "x\\/y\\u00E9", "d": "old"}';
    const next = edited(raw, (v) => (v.d = 'new'));
    expect(spliceJsonLine(raw, next)).toBe('{"a": 1.0, "b": 1e5, "c": "x\\/y\\u00E9", "d": "new"}');
  });

  it('appends an added key with the detected separators', () => {
    const raw = '{"name": "René", "city": "Köln", "score": 1.0}';
    const next = edited(raw, (v) => (v.notes = { lang: 'fr', ok: [true, null] }));
    // What Python's json.dumps(..., ensure_ascii=False) writes for `next`, but with 1.0 kept.
    expect(spliceJsonLine(raw, next)).toBe(
      '{"name": "René", "city": "Köln", "score": 1.0, "notes": {"lang": "fr", "ok": [true, null]}}',
    );
    expect(spliceJsonLine('{"a":1.0}', { a: 1, b: 'é' })).toBe('{"a":1.0,"b":"é"}');
    expect(spliceJsonLine('{"a":"\\u00e9"}', { a: 'é', b: 'ü' })).toBe(
      '{"a":"\\u00e9","b":"\\u00fc"}',
    );
    expect(spliceJsonLine('{ }', { a: 1 })).toBe('{"a":1}');
  });

  it('drops a removed key and keeps its neighbours', () => {
    // The odd double space is kept between its neighbours; new gaps take the common ", ".
    const raw = '{"a": 1.0,  "b": 2, "c": 3.0, "d": 4}';
    expect(spliceJsonLine(raw, { a: 1, c: 3, d: 4 })).toBe('{"a": 1.0, "c": 3.0, "d": 4}');
    expect(spliceJsonLine(raw, { b: 2, c: 3, d: 4 })).toBe('{"b": 2, "c": 3.0, "d": 4}');
    expect(spliceJsonLine(raw, { a: 1, b: 2, d: 4 })).toBe('{"a": 1.0,  "b": 2, "d": 4}');
    expect(spliceJsonLine(raw, {})).toBe('{}');
  });

  it('keeps source key order, which a JS object cannot always hold', () => {
    const raw = '{"b": 1, "1": 2.0}'; // Object.keys says ["1", "b"]
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.b = 5)),
      ),
    ).toBe('{"b": 5, "1": 2.0}');
    expect(spliceJsonLine(raw, { 1: 2, b: 1 })).toBe(raw);
  });

  it('rewrites a changed type or array length in the line style', () => {
    const raw = '{"a": 1.0, "b": "x", "c": [1.0, 2.0]}';
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.b = { k: ['é'] })),
      ),
    ).toBe('{"a": 1.0, "b": {"k": ["é"]}, "c": [1.0, 2.0]}');
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.c = [1, 2, 3])),
      ),
    ).toBe('{"a": 1.0, "b": "x", "c": [1, 2, 3]}');
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => ((v.c as number[])[1] = 5)),
      ),
    ).toBe('{"a": 1.0, "b": "x", "c": [1.0, 5]}');
  });

  it('treats __proto__ as an ordinary key', () => {
    const raw = '{"__proto__": {"x": 1.0}, "y": 2}';
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.y = 3)),
      ),
    ).toBe('{"__proto__": {"x": 1.0}, "y": 3}');
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => ((v.__proto__ as JsonObject).x = 9)),
      ),
    ).toBe('{"__proto__": {"x": 9}, "y": 2}');
    // No own "__proto__" in next: the member goes, and the prototype is not read as data.
    expect(spliceJsonLine(raw, { y: 2 })).toBe('{"y": 2}');
    expect(spliceJsonLine('{"y": 2}', JSON.parse('{"y": 2, "__proto__": 0}'))).toBe(
      '{"y": 2, "__proto__": 0}',
    );
  });

  it('keeps big integers whose rounded value is unchanged', () => {
    const raw = '{"id": 12345678901234567890, "n": 1}';
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.n = 2)),
      ),
    ).toBe('{"id": 12345678901234567890, "n": 2}');
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.id = 7)),
      ),
    ).toBe('{"id": 7, "n": 1}');
  });

  it('keeps an integer past 2^53 read exactly, and rewrites one that changed', () => {
    const line = '{"id": 1234567890123456789, "text": "a"}';
    const same = parseJsonExact(line) as Record<string, unknown>;
    expect(spliceJsonLine(line, { ...same, text: 'b' })).toBe(
      '{"id": 1234567890123456789, "text": "b"}',
    );
    expect(spliceJsonLine(line, { ...same, id: 1234567890123456790n })).toBe(
      '{"id": 1234567890123456790, "text": "a"}',
    );
  });

  it('tells -0 from 0', () => {
    expect(spliceJsonLine('{"a": -0.0}', { a: -0 })).toBe('{"a": -0.0}');
    expect(spliceJsonLine('{"a": -0.0}', { a: 0 })).toBe('{"a": 0}');
    expect(spliceJsonLine('{"a": 0}', { a: -0 })).toBe('{"a": -0}');
  });

  it('keeps lone surrogates, escaped or raw', () => {
    const raw = '{"s": "\\ud800", "r": "\udc00", "t": 1}';
    expect(
      spliceJsonLine(
        raw,
        edited(raw, (v) => (v.t = 2)),
      ),
    ).toBe('{"s": "\\ud800", "r": "\udc00", "t": 2}');
    expect(spliceJsonLine('{"s":"x"}', { s: '\udc00' })).toBe('{"s":"\\udc00"}');
  });

  it('reads keys without JSON.parse, which V8 can get wrong', () => {
    JSON.parse('{"h": [], "\\\\": 0}'); // teaches V8 a key `\`
    const raw = '{"h": 1, "\\"": 2}';
    expect(spliceJsonLine(raw, { h: 5, '"': 2 })).toBe('{"h": 5, "\\"": 2}');
  });

  it('keeps whitespace around the value', () => {
    expect(spliceJsonLine('  {"a": 1}\t', { a: 2 })).toBe('  {"a": 2}\t');
    expect(spliceJsonLine(' "x" ', 'y')).toBe(' "y" ');
  });

  it('compares toJSON results, as they would be written', () => {
    const raw = '{"t": "1970-01-01T00:00:00.000Z", "u": 1}';
    expect(spliceJsonLine(raw, { t: new Date(0), u: 1, gone: undefined })).toBe(raw);
  });

  it('rewrites lines that are not strict JSON, or are ambiguous, whole', () => {
    expect(spliceJsonLine('{"a": 1, "a": 2}', { a: 3 })).toBe('{"a": 3}');
    expect(spliceJsonLine('{"a": [{"b": 1, "b": 1}], "c": 1.0}', { a: [{ b: 1 }], c: 1 })).toBe(
      '{"a": [{"b": 1}], "c": 1}',
    );
    expect(spliceJsonLine('{"a": 1.0,}', { a: 1 })).toBe('{"a": 1}');
    expect(spliceJsonLine('{"a": 1.0 /* c */}', { a: 1 })).toBe('{"a": 1}');
    expect(spliceJsonLine('{"a":\u00a01.0}', { a: 1 })).toBe('{"a":1}');
    expect(spliceJsonLine('', { a: 'é' })).toBe('{"a":"é"}');
  });
});

// ---- Property tests ----

/** A random number in [0, 1), or undefined for the canonical spelling. */
type Dice = (() => number) | undefined;

function dice(seed: number | null): Dice {
  // A small seeded generator, so fast-check can replay a failure.
  return seed === null ? undefined : prng(seed);
}

/**
 * The reference writer: `value` in `style`, canonically (JSON.stringify's
 * spellings, -0 as `-0`) or, given dice, with random alternative spellings of
 * the same values (`1.0`, `1E+00`, `\/`, `\u0041`, uppercase hex, raw lone
 * surrogates).
 */
function render(value: Json, style: JsonStyle, roll?: Dice): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return renderNumber(value, roll);
  if (typeof value === 'string') return renderString(value, style, roll);
  if (Array.isArray(value)) {
    return `[${value.map((item) => render(item, style, roll)).join(style.itemSeparator)}]`;
  }
  const members = Object.keys(value).map(
    (key) => renderString(key, style, roll) + style.keySeparator + render(value[key]!, style, roll),
  );
  return `{${members.join(style.itemSeparator)}}`;
}

function renderNumber(value: number, roll: Dice): string {
  const text = Object.is(value, -0) ? '-0' : JSON.stringify(value);
  if (roll === undefined) return text;
  const pick = roll();
  if (Number.isInteger(value)) {
    const digits = Object.is(value, -0) ? '-0' : BigInt(value).toString();
    if (pick < 0.25) return `${digits}.0`;
    if (pick < 0.5) return `${digits}E+00`;
    if (pick < 0.75) return digits;
    return text;
  }
  return pick < 0.5 ? text.replace(/\.\d+/, (digits) => `${digits}0`).replace('e', 'E') : text;
}

const SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function renderString(value: string, style: JsonStyle, roll: Dice): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const char = value.charAt(i);
    const code = value.charCodeAt(i);
    const lone = isLoneSurrogate(value, i);
    const hex = (upper: boolean) => {
      const digits = code.toString(16).padStart(4, '0');
      return `\\u${upper ? digits.toUpperCase() : digits}`;
    };
    const short = SHORT[char];
    if (roll !== undefined && roll() < 0.2) {
      out += hex(roll() < 0.5);
    } else if (short !== undefined) {
      out += short;
    } else if (code < 0x20 || (style.asciiOnly && code >= 0x80)) {
      out += hex(roll !== undefined && roll() < 0.5);
    } else if (lone) {
      out += roll !== undefined && roll() < 0.5 ? char : hex(false);
    } else if (char === '/' && roll !== undefined && roll() < 0.5) {
      out += '\\/';
    } else {
      out += char;
    }
  }
  return `${out}"`;
}

function isLoneSurrogate(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
  const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
  if (isHigh(code)) return !isLow(text.charCodeAt(i + 1));
  if (isLow(code)) return !isHigh(text.charCodeAt(i - 1));
  return false;
}

const char = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...['"', '\\', '/', ':', ',', ' ', '\n', '\t', '\u0000', '\u007f', 'é', 'ß', '\u2028'],
      ...['中', '😀', '\ud800', '\udc00'],
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
  },
);
const text = fc.string({ unit: char, maxLength: 6 });
const key = fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'toString', '0', '7'));
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, 1.5, 1e21, 2 ** 53 + 2, 1e-7),
);
const scalar = fc.oneof(fc.constant(null), fc.boolean(), number, text);
const objectOf = (value: fc.Arbitrary<Json>, minLength = 0) =>
  fc
    .uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, minLength, maxLength: 5 })
    .map((entries): JsonObject => Object.fromEntries(entries)); // own keys, "__proto__" too
const { json } = fc.letrec<{ json: Json; array: Json[]; object: JsonObject }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    scalar,
    tie('array'),
    tie('object'),
    fc.jsonValue({ stringUnit: char, maxDepth: 2 }),
  ),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: objectOf(tie('json')),
}));
const line = (minKeys = 0) => objectOf(json, minKeys);
const style = fc.constantFrom(compact, python, pythonAscii, compactAscii);
const spelling = fc.option(fc.integer(), { nil: null });
const blank = fc.constantFrom('', ' ', '  ', '\t');

/** Every path in a value, containers included, the root left out. */
function pathsIn(value: Json, prefix: JSONPath = []): JSONPath[] {
  if (value === null || typeof value !== 'object') return [];
  const steps: (string | number)[] = Array.isArray(value)
    ? value.map((_, i) => i)
    : Object.keys(value);
  return steps.flatMap((step) => {
    const path = [...prefix, step];
    const child = Array.isArray(value) ? value[step as number]! : value[step as string]!;
    return [path, ...pathsIn(child, path)];
  });
}

/** The container at `path` in `value`. */
function at(value: Json, path: JSONPath): Json {
  return path.reduce<Json>(
    (node, step) => (Array.isArray(node) ? node[step as number]! : (node as JsonObject)[step]!),
    value,
  );
}

function setAt(value: Json, path: JSONPath, replacement: Json): void {
  const parent = at(value, path.slice(0, -1));
  const step = path.at(-1)!;
  if (Array.isArray(parent)) parent[step as number] = replacement;
  else (parent as JsonObject)[step] = replacement; // an own "__proto__" is a data property
}

/** Each top-level member's source text, by key. */
function memberTexts(raw: string): Map<string, string> {
  const root = parseTree(raw)!;
  return new Map(
    (root.children ?? []).map((p: Node) => [
      p.children![0]!.value as string,
      raw.slice(p.offset, p.offset + p.length),
    ]),
  );
}

/**
 * That `text` is written canonically in `style` throughout, whatever its key
 * order: every gap is the style's separator (or nothing, inside brackets) and
 * every scalar is spelled as the reference writer spells it.
 */
function expectInStyle(text: string, style: JsonStyle): void {
  const end = (node: Node) => node.offset + node.length;
  const wrong: string[] = [];
  const check = (start: number, stop: number, want: string) => {
    if (text.slice(start, stop) !== want) wrong.push(`${start}: ${text.slice(start, stop)}`);
  };
  const visit = (node: Node): void => {
    const children = node.children ?? [];
    if (node.type === 'object' || node.type === 'array') {
      let cursor = node.offset + 1;
      children.forEach((child, i) => {
        check(cursor, child.offset, i === 0 ? '' : style.itemSeparator);
        visit(child);
        cursor = end(child);
      });
      check(cursor, end(node) - 1, '');
    } else if (node.type === 'property') {
      const [keyNode, valueNode] = children as [Node, Node];
      visit(keyNode);
      check(end(keyNode), valueNode.offset, style.keySeparator);
      visit(valueNode);
    } else {
      check(node.offset, end(node), render(node.value as Json, style));
    }
  };
  visit(parseTree(text)!);
  expect(wrong).toEqual([]);
}

const hasNonAscii = (value: Json): boolean =>
  /[\u0080-\ud7ff\ue000-\uffff]|[\ud800-\udbff][\udc00-\udfff]/.test(JSON.stringify(value));

describe('spliceJsonLine properties', () => {
  it('returns an unchanged line byte for byte', () => {
    fc.assert(
      fc.property(line(), style, spelling, blank, blank, (value, s, seed, before, after) => {
        const raw = before + render(value, s, dice(seed)) + after;
        expect(parseJson(raw)).toEqual(value); // the reference writer is sound
        expect(spliceJsonLine(raw, parseJson(raw))).toBe(raw);
        expect(spliceJsonLine(raw, value)).toBe(raw);
      }),
      { numRuns: 300 },
    );
  });

  it('changes only the bytes of a changed value', () => {
    const changed = line(1).chain((value) =>
      fc.record({
        value: fc.constant(value),
        path: fc.constantFrom(...pathsIn(value)),
        replacement: json,
      }),
    );
    fc.assert(
      fc.property(changed, style, spelling, ({ value, path, replacement }, s, seed) => {
        const raw = render(value, s, dice(seed));
        const next = edited(raw, (v) => setAt(v, path, replacement));
        const out = spliceJsonLine(raw, next);
        expect(parseJson(out)).toEqual(next);
        // Everything before and after the changed value is the source's.
        const node = findNodeAtLocation(parseTree(raw)!, path)!;
        expect(out.slice(0, node.offset)).toBe(raw.slice(0, node.offset));
        const tail = raw.slice(node.offset + node.length);
        expect(out.slice(out.length - tail.length)).toBe(tail);
        const before = memberTexts(raw);
        for (const [k, member] of memberTexts(out)) {
          if (k !== path[0]) expect(member).toBe(before.get(k));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes new parts in the line style', () => {
    const changed = line(2).chain((value) =>
      fc.record({
        value: fc.constant(value),
        path: fc.constantFrom(...pathsIn(value)),
        replacement: json,
      }),
    );
    fc.assert(
      fc.property(changed, style, ({ value, path, replacement }, s) => {
        const raw = render(value, s);
        const detected = detectJsonStyle(raw);
        expect(detected.keySeparator).toBe(s.keySeparator);
        expect(detected.itemSeparator).toBe(s.itemSeparator);
        if (hasNonAscii(value)) expect(detected.asciiOnly).toBe(s.asciiOnly);
        expectInStyle(raw, s); // the check is sound
        const next = edited(raw, (v) => setAt(v, path, replacement));
        // A canonical line with a change is canonical all through: the new parts match.
        const out = spliceJsonLine(raw, next);
        expect(parseJson(out)).toEqual(next);
        expectInStyle(out, detected);
        if (detected.asciiOnly) expect(out).not.toMatch(/[\u0080-\uffff]/);
      }),
      { numRuns: 300 },
    );
  });

  it('adds and removes keys in place', () => {
    const isIndex = (k: string) => /^(0|[1-9]\d*)$/.test(k);
    const objects = (value: Json) =>
      [[], ...pathsIn(value)].filter((p) => {
        const node = at(value, p);
        return node !== null && typeof node === 'object' && !Array.isArray(node);
      });
    const changed = line().chain((value) =>
      fc.record({
        value: fc.constant(value),
        path: fc.constantFrom(...objects(value)),
        added: fc.option(
          fc.tuple(
            key.filter((k) => !isIndex(k)),
            json,
          ),
          { nil: null },
        ),
        removed: fc.nat(),
      }),
    );
    fc.assert(
      fc.property(changed, style, ({ value, path, added, removed }, s) => {
        const raw = render(value, s);
        const next = edited(raw, (v) => {
          const target = at(v, path) as JsonObject;
          const keys = Object.keys(target);
          if (added === null || Object.hasOwn(target, added[0])) {
            if (keys.length > 0) Reflect.deleteProperty(target, keys[removed % keys.length]!);
          } else {
            // Defined, not assigned: assigning "__proto__" would set the prototype.
            Object.defineProperty(target, added[0], {
              value: added[1],
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
        });
        const out = spliceJsonLine(raw, next);
        expect(parseJson(out)).toEqual(next);
        expect(out).toBe(render(next, detectJsonStyle(raw)));
      }),
      { numRuns: 200 },
    );
  });
});
