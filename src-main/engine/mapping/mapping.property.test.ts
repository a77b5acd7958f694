import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_FORMS,
  FieldMapping,
  type AnswerForm,
  type SourceField,
} from '../../../src-shared/schemas/mapping.ts';
import {
  Sample,
  type ConversationSample,
  type MultipleChoiceSample,
} from '../../../src-shared/schemas/sample.ts';
import { rowToSample, sampleToRow, type ShapeMapper } from '../shapes/index.ts';
import type { Row } from '../shapes/types.ts';
import { readAnswer } from './answer-form.ts';
import { getPath, guessMapping, mappingShape, setPath } from './index.ts';
import { joinParts, splitJoined } from './joined.ts';

/**
 * Properties of field mappings over random rows and mappings: an unchanged
 * sample writes back the very row (values, types, key order), passthrough
 * metadata is carried, a changed value lands only in its own field, a dropped
 * duplicate choice re-points the answer in the source's form, and the helpers
 * (paths, joined prompts, guesses) hold their contracts.
 */

const RUNS = { numRuns: 300 };

// ---- Rows built from slots (mapped values) and extras, in a random key order ----

/** Where a mapped value sits: a top-level key (which may hold a dot) or a key of a nested object. */
interface Loc {
  parent: string | undefined;
  key: string;
}
interface Slot {
  loc: Loc;
  value: unknown;
}
interface Case {
  mapping: (paths: string[]) => FieldMapping;
  slots: Slot[];
  extras: Slot[];
  ranks: number[];
}

const pathOf = ({ parent, key }: Loc): string => (parent === undefined ? key : `${parent}.${key}`);

/** Keys with dots, and names that collide with sample fields, prototypes or result blocks. */
const keyArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({
      unit: fc.constantFrom('a', 'b', 'c', 'x', 'y', '.', '_'),
      minLength: 1,
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'text',
      'answer',
      'choices',
      'messages',
      'task_type',
      'audit',
      'style',
      'turns',
      'meta.q',
    ),
  },
);
const parentArb = fc.option(fc.constantFrom('meta', 'data', 'x.y', 'choices'), {
  nil: undefined,
  freq: 2,
});
const locArb: fc.Arbitrary<Loc> = fc.record({ parent: parentArb, key: keyArb });
const locsArb = (n: number) => fc.array(locArb, { minLength: n, maxLength: n });

const textValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  { weight: 1, arbitrary: fc.boolean() },
);
const extraValue = fc.jsonValue({ maxDepth: 2 });

/** The row the slots and extras make: first placement of a key wins, order by rank. */
function build(
  c: Case,
  values: readonly unknown[] = c.slots.map((s) => s.value),
): {
  row: Row;
  placed: boolean[];
} {
  const items = [
    ...c.slots.map((slot, i) => ({ ...slot.loc, value: values[i], slot: i })),
    ...c.extras.map((extra) => ({ ...extra.loc, value: extra.value, slot: -1 })),
  ]
    .map((item, i) => ({ item, rank: c.ranks[i % c.ranks.length] ?? 0, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ item }) => item);
  const top = new Map<string, unknown>();
  const placed = c.slots.map(() => false);
  for (const item of items) {
    if (item.parent === undefined) {
      if (top.has(item.key)) continue;
      top.set(item.key, item.value);
    } else {
      if (!top.has(item.parent)) top.set(item.parent, new Map<string, unknown>());
      const nested = top.get(item.parent);
      if (!(nested instanceof Map) || nested.has(item.key)) continue;
      nested.set(item.key, item.value);
    }
    if (item.slot >= 0) placed[item.slot] = true;
  }
  const row: Row = Object.fromEntries(
    [...top].map(([key, value]) => [key, value instanceof Map ? Object.fromEntries(value) : value]),
  );
  return { row, placed };
}

/**
 * The case's row when every slot is placed and its path reads exactly that
 * slot (checked with a unique marker per slot, so an equal value elsewhere
 * cannot pass), paths distinct and none inside another; else undefined.
 */
function rowOf(c: Case): Row | undefined {
  const { row, placed } = build(c);
  if (!placed.every(Boolean)) return undefined;
  const paths = c.slots.map((slot) => pathOf(slot.loc));
  if (new Set(paths).size !== paths.length) return undefined;
  if (paths.some((p) => paths.some((q) => q !== p && q.startsWith(`${p}.`)))) return undefined;
  const markers = c.slots.map((_, i) => ({ slot: i }));
  const { row: marked } = build(c, markers);
  if (!paths.every((path, i) => getPath(marked, path) === markers[i])) return undefined;
  return row;
}

const ranksArb = fc.array(fc.nat({ max: 50 }), { minLength: 16, maxLength: 16 });
const extrasArb = fc.array(fc.record({ loc: locArb, value: extraValue }), { maxLength: 5 });

function caseOf(
  values: fc.Arbitrary<unknown[]>,
  mapping: fc.Arbitrary<(paths: string[]) => FieldMapping>,
): fc.Arbitrary<Case> {
  return fc.tuple(values, mapping, extrasArb, ranksArb).chain(([vals, map, extras, ranks]) =>
    locsArb(vals.length).map((locs) => ({
      mapping: map,
      slots: vals.map((value, i) => ({ loc: locs[i] as Loc, value })),
      extras,
      ranks,
    })),
  );
}

const at = (paths: string[], i: number): string => paths[i] as string;

const textCase = caseOf(
  fc.tuple(textValue),
  fc.constant((p: string[]) => ({ task_type: 'text' as const, fields: { text: at(p, 0) } })),
);

const qaCase = caseOf(
  fc.tuple(textValue, textValue),
  fc.constant((p: string[]) => ({
    task_type: 'question_answer' as const,
    fields: { question: at(p, 0), answer: at(p, 1) },
  })),
);

/** The texts the mapping reads from choice values (trailing empty columns left out). */
function choiceTexts(values: readonly unknown[], columns: boolean): string[] {
  const list = [...values];
  if (columns) while (list.length > 0 && (list.at(-1) === '' || list.at(-1) === null)) list.pop();
  return list.map((v) => (v === null ? '' : String(v as string | number)));
}

/** An answer in `form` for the choices: in range mostly, out of range sometimes (kept for the audit). */
function answerArb(form: AnswerForm, values: readonly unknown[], texts: readonly string[]) {
  const index = fc.nat({ max: texts.length + 1 });
  switch (form) {
    case 'letter':
      return fc
        .tuple(fc.nat({ max: Math.min(texts.length + 1, 25) }), fc.boolean())
        .map(([i, lower]) => {
          const letter = String.fromCharCode(65 + i);
          return lower ? letter.toLowerCase() : letter;
        });
    case 'zero_based':
    case 'one_based': {
      const base = form === 'one_based' ? 1 : 0;
      return fc
        .tuple(index, fc.boolean())
        .map(([i, asText]) => (asText ? String(i + base) : i + base));
    }
    case 'text':
      return fc.nat({ max: texts.length - 1 }).map((i) => {
        const value = values[i];
        return value === null ? '' : value;
      });
  }
}

const choiceValue = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 99 }));
const styleArb = fc.constantFrom<string | undefined>(undefined, 'qa', 'continuation', 'field');

const mcCase: fc.Arbitrary<Case> = fc
  .record({
    form: fc.constantFrom(...ANSWER_FORMS),
    columns: fc.boolean(),
    values: fc.array(fc.oneof(choiceValue, fc.constantFrom('', null)), {
      minLength: 1,
      maxLength: 6,
    }),
    style: styleArb,
    styleValue: fc.constantFrom('qa', 'continuation'),
    context: textValue,
  })
  .filter(({ columns, values }) =>
    columns
      ? values.length >= 2 && choiceTexts(values, true).length > 0
      : values.every((v) => v !== null),
  )
  .chain(({ form, columns, values, style, styleValue, context }) => {
    const texts = choiceTexts(values, columns);
    return answerArb(form, values, texts).chain((answer) => {
      const choiceCount = columns ? values.length : 1;
      const slotValues: unknown[] = [
        context,
        ...(columns ? values : [values]),
        answer,
        ...(style === 'field' ? [styleValue] : []),
      ];
      const mapping = (p: string[]): FieldMapping => ({
        task_type: 'multiple_choice',
        fields: {
          context: at(p, 0),
          choices: columns ? p.slice(1, 1 + choiceCount) : at(p, 1),
          answer: at(p, 1 + choiceCount),
          ...(style === undefined
            ? {}
            : { style: style === 'field' ? at(p, 2 + choiceCount) : style }),
        },
        answer_form: form,
      });
      return caseOf(fc.constant(slotValues), fc.constant(mapping));
    });
  });

const ROLE_NAMES = ['human', 'gpt', 'user', 'assistant', 'system', 'bot', 'A'];
const messagesCase: fc.Arbitrary<Case> = fc
  .record({
    roleKey: fc.constantFrom('role', 'from', 'speaker'),
    contentKey: fc.constantFrom('content', 'value', 'text'),
    roles: fc.dictionary(
      fc.constantFrom(...ROLE_NAMES),
      fc.constantFrom('user', 'assistant', 'system'),
      {
        maxKeys: 3,
      },
    ),
    turns: fc.array(
      fc.record({
        name: fc.constantFrom(...ROLE_NAMES),
        content: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)),
        extra: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
        contentFirst: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .chain(({ roleKey, contentKey, roles, turns }) => {
    const array = turns.map(({ name, content, extra, contentFirst }) => {
      const entries: [string, unknown][] = [
        [roleKey, name],
        [contentKey, content],
      ];
      if (contentFirst) entries.reverse();
      if (extra !== undefined) entries.splice(1, 0, ['weight', extra]);
      return Object.fromEntries(entries);
    });
    const mapping = (p: string[]): FieldMapping => ({
      task_type: 'conversation',
      fields: {
        messages: at(p, 0),
        ...(roleKey === 'role' ? {} : { role_key: roleKey }),
        ...(contentKey === 'content' ? {} : { content_key: contentKey }),
        ...(Object.keys(roles).length > 0 ? { roles } : {}),
      },
    });
    return caseOf(fc.constant([array]), fc.constant(mapping));
  });

const partValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 2, arbitrary: fc.constantFrom('', null) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 99 }) },
);
const promptCase: fc.Arbitrary<Case> = fc
  .record({
    parts: fc.array(partValue, { minLength: 1, maxLength: 3 }),
    response: textValue,
    system: fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', null)), {
      nil: undefined,
    }),
  })
  .chain(({ parts, response, system }) => {
    const n = parts.length;
    const mapping = (p: string[]): FieldMapping => ({
      task_type: 'conversation',
      fields: {
        prompt: n === 1 ? at(p, 0) : p.slice(0, n),
        response: at(p, n),
        ...(system === undefined ? {} : { system: at(p, n + 1) }),
      },
    });
    return caseOf(
      fc.constant([...parts, response, ...(system === undefined ? [] : [system])]),
      fc.constant(mapping),
    );
  });

const anyCase = fc.oneof(textCase, qaCase, mcCase, messagesCase, promptCase);

/** A case with its row and compiled mapper, or undefined when its keys made an ambiguous row. */
function setUp(c: Case): { row: Row; paths: string[]; mapper: ShapeMapper } | undefined {
  const row = rowOf(c);
  if (!row) return undefined;
  const paths = c.slots.map((slot) => pathOf(slot.loc));
  const mapping = c.mapping(paths);
  return { row, paths, mapper: mappingShape(FieldMapping.parse(mapping)) };
}

const SAMPLE_KEYS = new Set([
  'task_type',
  'text',
  'context',
  'choices',
  'answer_index',
  'style',
  'question',
  'answer',
  'messages',
  'turns',
  'audit',
  'fix',
  'reaudit',
]);

// ---- Properties ----

describe('round trip of an unchanged sample', () => {
  it('writes back the very row: values, types and key order', () => {
    let checked = 0;
    fc.assert(
      fc.property(anyCase, (c) => {
        const setup = setUp(c);
        fc.pre(setup !== undefined);
        const { row, mapper } = setup;
        const sample = rowToSample(row, mapper);
        expect(Sample.parse(sample)).toEqual(sample);
        const back = sampleToRow(structuredClone(sample), row, mapper);
        expect(JSON.stringify(back)).toBe(JSON.stringify(row));
        expect(back).toEqual(row);
        checked++;
      }),
      { ...RUNS, numRuns: 600 },
    );
    expect(checked).toBeGreaterThan(300);
  });

  it('carries unmapped fields, and the unmapped rest of a partly mapped object, as passthrough', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        const setup = setUp(c);
        fc.pre(setup !== undefined);
        const { row, mapper } = setup;
        const sample = rowToSample(row, mapper) as Row;
        const slotKeys = new Set(c.slots.map((s) => s.loc.parent ?? s.loc.key));
        for (const [key, value] of Object.entries(row)) {
          // Sample.parse (zod) drops a `__proto__` key, for the built-in shapes too.
          if (SAMPLE_KEYS.has(key) || key === '__proto__') continue;
          const mappedInside = c.slots.filter((s) => s.loc.parent === key).map((s) => s.loc.key);
          if (!slotKeys.has(key)) {
            expect(sample[key]).toEqual(value);
          } else if (mappedInside.length === 0) {
            expect(Object.hasOwn(sample, key)).toBe(false);
          } else {
            const rest = Object.fromEntries(
              Object.entries(value as Row).filter(([k]) => !mappedInside.includes(k)),
            );
            if (Object.keys(rest).length === 0) expect(Object.hasOwn(sample, key)).toBe(false);
            else expect(sample[key]).toEqual(rest);
          }
        }
      }),
      RUNS,
    );
  });
});

/** The value a new text is stored as, in the old value's type (the rule `sampleToRow` follows). */
function stored(old: unknown, text: string): unknown {
  if (old === null && text === '') return null;
  if (
    (typeof old === 'string' || typeof old === 'number' || typeof old === 'boolean') &&
    String(old) === text
  ) {
    return old;
  }
  if (typeof old === 'number' && String(Number(text)) === text) return Number(text);
  return text;
}

describe('a changed value', () => {
  const roleCase = fc.oneof(
    textCase.map((c) => ({ c, role: 'text', slot: 0 })),
    qaCase.chain((c) =>
      fc.constantFrom({ c, role: 'question', slot: 0 }, { c, role: 'answer', slot: 1 }),
    ),
    mcCase.map((c) => ({ c, role: 'context', slot: 0 })),
  );

  it('lands only in its own field, in the field’s type', () => {
    fc.assert(
      fc.property(
        roleCase,
        fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String)),
        ({ c, role, slot }, text) => {
          const setup = setUp(c);
          fc.pre(setup !== undefined);
          const { row, mapper } = setup;
          const sample = rowToSample(row, mapper);
          const changed: Sample = { ...sample, [role]: text };
          const back = sampleToRow(changed, row, mapper);
          const values = c.slots.map((s) => s.value);
          values[slot] = stored(values[slot], text);
          const expected = build(c, values).row;
          expect(JSON.stringify(back)).toBe(JSON.stringify(expected));
          expect((rowToSample(back, mapper) as Row)[role]).toBe(text);
        },
      ),
      RUNS,
    );
  });

  it('in a message lands in that turn’s content only, with the file’s role names', () => {
    fc.assert(
      fc.property(messagesCase, fc.nat(), fc.string({ maxLength: 8 }), (c, pick, text) => {
        const setup = setUp(c);
        fc.pre(setup !== undefined);
        const { row, mapper, paths } = setup;
        const sample = rowToSample(row, mapper) as ConversationSample;
        const j = pick % sample.messages.length;
        const messages = sample.messages.map((m, i) => (i === j ? { ...m, content: text } : m));
        const back = sampleToRow({ ...sample, messages }, row, mapper);
        const fields = c.mapping(paths).fields;
        const contentKey = fields.content_key ?? 'content';
        const turns = (getPath(row, at(paths, 0)) as Row[]).map((turn, i) =>
          i === j ? { ...turn, [contentKey]: stored(turn[contentKey], text) } : turn,
        );
        expect(JSON.stringify(back)).toBe(JSON.stringify(setPath(row, at(paths, 0), turns)));
      }),
      RUNS,
    );
  });

  it('in one part of a joined prompt lands in that part’s field', () => {
    fc.assert(
      fc.property(
        promptCase,
        fc.nat(),
        fc.string({ unit: fc.constantFrom('x', 'y', ' '), minLength: 1, maxLength: 4 }),
        (c, pick, added) => {
          const setup = setUp(c);
          fc.pre(setup !== undefined);
          const { row, mapper, paths } = setup;
          const promptPaths = [c.mapping(paths).fields.prompt].flat() as string[];
          const parts = promptPaths.map((p) => {
            const v = getPath(row, p);
            return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
          });
          const present = parts.flatMap((part, i) => (part === '' ? [] : [i]));
          fc.pre(present.length > 0);
          const target = present[pick % present.length] as number;
          const next = parts.map((part, i) => (i === target ? part + added : part));
          const sample = rowToSample(row, mapper) as ConversationSample;
          const messages = sample.messages.map((m) =>
            m.role === 'user' ? { ...m, content: joinParts(next) } : m,
          );
          const back = sampleToRow({ ...sample, messages }, row, mapper);
          const targetPath = at(promptPaths, target);
          const expected = setPath(
            row,
            targetPath,
            stored(getPath(row, targetPath), next[target] as string),
          );
          expect(JSON.stringify(back)).toBe(JSON.stringify(expected));
        },
      ),
      RUNS,
    );
  });
});

describe('a dropped duplicate choice', () => {
  const dupCase = fc
    .record({
      base: fc.uniqueArray(
        fc.string({
          unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
          minLength: 1,
          maxLength: 3,
        }),
        {
          minLength: 2,
          maxLength: 5,
        },
      ),
      form: fc.constantFrom(...ANSWER_FORMS),
      columns: fc.boolean(),
      spare: fc.nat({ max: 2 }),
      asText: fc.boolean(),
      lower: fc.boolean(),
      picks: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
    })
    .map(({ base, picks: [a, b, j], ...rest }) => {
      // A copy of choice `from` inserted after it, at `at`.
      const from = a % base.length;
      const at = from + 1 + (b % (base.length - from));
      const choices = [...base.slice(0, at), base[from] as string, ...base.slice(at)];
      return { ...rest, choices, dropped: at, answer: j % choices.length };
    })
    .filter(({ dropped, answer }) => dropped !== answer);

  it('re-points the answer in the source’s form, and the columns fill in order', () => {
    fc.assert(
      fc.property(dupCase, ({ choices, dropped, answer, form, columns, spare, asText, lower }) => {
        const answerValue = (() => {
          switch (form) {
            case 'letter': {
              const letter = String.fromCharCode(65 + answer);
              return lower ? letter.toLowerCase() : letter;
            }
            case 'zero_based':
              return asText ? String(answer) : answer;
            case 'one_based':
              return asText ? String(answer + 1) : answer + 1;
            case 'text':
              return choices[answer];
          }
        })();
        const columnNames = Array.from({ length: choices.length + spare }, (_, i) => `opt${i}`);
        const row: Row = {
          id: 1,
          q: 'Which?',
          ...(columns
            ? Object.fromEntries(columnNames.map((name, i) => [name, choices[i] ?? '']))
            : { options: choices }),
          gold: answerValue,
          note: 'kept',
        };
        const mapper = mappingShape({
          task_type: 'multiple_choice',
          fields: { context: 'q', choices: columns ? columnNames : 'options', answer: 'gold' },
          answer_form: form,
        });
        const sample = rowToSample(row, mapper) as MultipleChoiceSample;
        expect(sample.answer_index).toBe(answer);
        const kept = choices.filter((_, i) => i !== dropped);
        const index = answer > dropped ? answer - 1 : answer;
        const back = sampleToRow({ ...sample, choices: kept, answer_index: index }, row, mapper);
        expect(Object.keys(back)).toEqual(Object.keys(row));
        expect(typeof back.gold).toBe(typeof row.gold);
        if (form === 'letter') expect(back.gold === String(back.gold).toLowerCase()).toBe(lower);
        expect(readAnswer(back.gold, form, kept)).toBe(index);
        if (columns) {
          expect(columnNames.map((name) => back[name])).toEqual(
            columnNames.map((_, i) => kept[i] ?? ''),
          );
        }
        expect(rowToSample(back, mapper)).toEqual({
          ...sample,
          choices: kept,
          answer_index: index,
        });
      }),
      RUNS,
    );
  });
});

describe('splitJoined', () => {
  // Letters and spaces only: an edit cannot slide across the blank-line separator.
  const part = fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 8 });
  const parts = fc.array(part, { minLength: 2, maxLength: 4 });

  it('puts an edit inside one part back into that part', () => {
    fc.assert(
      fc.property(
        parts,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 4 }),
        (list, pick, from, length, inserted) => {
          const present = list.flatMap((p, i) => (p === '' ? [] : [i]));
          fc.pre(present.length > 0);
          const i = present[pick % present.length] as number;
          const old = list[i] as string;
          const start = from % (old.length + 1);
          const end = start + (length % (old.length - start + 1));
          const edited = old.slice(0, start) + inserted + old.slice(end);
          fc.pre(edited !== '');
          const next = list.map((p, k) => (k === i ? edited : p));
          expect(splitJoined(list, joinParts(next), ['a', 'b', 'c', 'd'])).toEqual({ parts: next });
        },
      ),
      RUNS,
    );
  });

  it('empties a part removed whole, and refuses a merge of two parts', () => {
    fc.assert(
      fc.property(parts, fc.nat(), (list, pick) => {
        const present = list.flatMap((p, i) => (p === '' ? [] : [i]));
        fc.pre(present.length >= 2);
        const i = present[pick % present.length] as number;
        const removed = splitJoined(list, joinParts(list.map((p, k) => (k === i ? '' : p))), []);
        if (!('parts' in removed)) throw new Error(removed.conflict);
        expect(joinParts(removed.parts)).toBe(joinParts(list.map((p, k) => (k === i ? '' : p))));
        expect(removed.parts.filter((p) => p === '').length).toBe(
          list.filter((p) => p === '').length + 1,
        );
        const merged = splitJoined(list, joinParts(list).replace('\n\n', '\n'), []);
        expect(merged).toHaveProperty('conflict');
      }),
      RUNS,
    );
  });

  it('returns parts that join to the new string, or a conflict, for any edit', () => {
    fc.assert(
      fc.property(
        parts,
        fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' '), maxLength: 20 }),
        (list, next) => {
          const result = splitJoined(list, next, []);
          if ('parts' in result) {
            expect(joinParts(result.parts)).toBe(next);
            expect(result.parts).toHaveLength(list.length);
          } else {
            expect(result.conflict).toMatch(/^a repair /);
          }
        },
      ),
      RUNS,
    );
  });
});

describe('paths', () => {
  it('reads back what it writes, copies instead of mutating, and keeps the key order', () => {
    fc.assert(
      fc.property(anyCase, fc.jsonValue({ maxDepth: 1 }), (c, value) => {
        const setup = setUp(c);
        fc.pre(setup !== undefined);
        const { row, paths } = setup;
        const before = JSON.stringify(row);
        for (const path of paths) {
          const written = setPath(row, path, value);
          expect(getPath(written, path)).toEqual(value);
          expect(Object.keys(written)).toEqual(Object.keys(row));
          expect(JSON.stringify(setPath(written, path, getPath(row, path)))).toBe(before);
        }
        expect(JSON.stringify(row)).toBe(before);
      }),
      RUNS,
    );
  });
});

describe('guessMapping', () => {
  const kinds = ['string', 'number', 'boolean', 'null', 'array', 'object', 'mixed'] as const;
  const field: fc.Arbitrary<SourceField> = fc.record({
    path: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        'question',
        'answer',
        'A',
        'B',
        'C',
        'D',
        'a',
        'b',
        'choices',
        'options',
        'label',
        'instruction',
        'input',
        'context',
        'response',
        'output',
        'prompt',
        'completion',
        'messages',
        'conversations',
        'text',
        'system',
        'meta.question',
        'q',
      ),
    ),
    kind: fc.constantFrom(...kinds),
    sample: fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('[{"from":"human","value":"hi"}]', '[{"role":"user","content":"x"}]', '[{"a'),
    ),
    rows: fc.nat(),
  });

  it('never throws, and every guess is a valid mapping that compiles', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 12 }), (fields) => {
        const guess = guessMapping(fields);
        if (guess === null) return;
        expect(FieldMapping.safeParse(guess).success).toBe(true);
        expect(() => mappingShape(guess)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});
