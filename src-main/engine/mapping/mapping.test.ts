import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import {
  Sample,
  type ConversationSample,
  type MultipleChoiceSample,
  type QuestionAnswerSample,
  type TextSample,
} from '../../../src-shared/schemas/sample.ts';
import { rowToSample, sampleToRow, type ShapeId, type ShapeMapper } from '../shapes/index.ts';
import type { Row } from '../shapes/types.ts';
import { readJsonl } from '../testing/real-data.ts';
import { needsShared, sharedFile, sharedJsonl } from '../testing/shared-data.ts';
import { detectAnswerForm, readAnswer, writeAnswer } from './answer-form.ts';
import {
  fieldsOf,
  getPath,
  guessMapping,
  hasPath,
  mappingShape,
  setPath,
  shapeMapping,
  withAnswerForm,
} from './index.ts';
import { joinParts, splitJoined } from './joined.ts';

/** A mapping compiled with its answer form detected from `rows` (as the import does). */
function compile(mapping: FieldMapping, rows: readonly Row[] = []): ShapeMapper {
  return mappingShape(withAnswerForm(mapping, rows));
}

/** Maps the row, checks the sample, and checks the unchanged sample writes back the same row. */
function roundTrip(row: Row, mapper: ShapeMapper): Sample {
  const sample = rowToSample(row, mapper);
  expect(Sample.parse(sample)).toEqual(sample);
  const back = sampleToRow(structuredClone(sample), row, mapper);
  expect(back).toEqual(row);
  // Same keys in the same order, nested ones included.
  expect(JSON.stringify(back)).toBe(JSON.stringify(row));
  return sample;
}

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const WRITE_BACK_CONFLICT = /^the repair cannot be written back/;

describe('paths', () => {
  const row = {
    'meta.question': 'flat',
    meta: { question: 'nested', tags: ['a', 'b'] },
    'a.b': { c: 1 },
    turns: [{ text: 'first' }, { text: null }],
  };

  it('reads dotted paths, a key holding a dot whole first, and array indexes', () => {
    expect(getPath(row, 'meta.question')).toBe('flat');
    expect(getPath(row, 'meta.tags')).toEqual(['a', 'b']);
    expect(getPath(row, 'meta.tags.1')).toBe('b');
    expect(getPath(row, 'a.b.c')).toBe(1);
    expect(getPath(row, 'turns.0.text')).toBe('first');
    expect(hasPath(row, 'turns.1.text')).toBe(true);
    expect(getPath(row, 'turns.1.text')).toBeNull();
    expect(hasPath(row, 'turns.2.text')).toBe(false);
    expect(hasPath(row, 'meta.answer')).toBe(false);
    expect(hasPath(row, 'nothing')).toBe(false);
  });

  it('writes a copy with every other key in its place, creating and removing keys', () => {
    const before = structuredClone(row);
    const changed = setPath(row, 'meta.question', 'X');
    expect(row).toEqual(before);
    expect(changed['meta.question']).toBe('X');
    expect(changed.meta).toBe(row.meta);
    expect(Object.keys(changed)).toEqual(Object.keys(row));

    const nested = setPath(row, 'a.b.c', 2);
    expect(nested['a.b']).toEqual({ c: 2 });
    expect(Object.keys(nested)).toEqual(Object.keys(row));

    const inArray = setPath(row, 'turns.1.text', 'second');
    expect(inArray.turns).toEqual([{ text: 'first' }, { text: 'second' }]);

    expect(setPath({ x: 1 }, 'new.deep', 'v')).toEqual({ x: 1, new: { deep: 'v' } });
    const removed = setPath(row, 'meta.tags', undefined);
    expect(removed.meta).toEqual({ question: 'nested' });
    expect(setPath(row, 'missing.path', undefined)).toBe(row);
  });

  it('keeps a __proto__ key an own property', () => {
    const odd = JSON.parse('{"__proto__": {"q": "x"}, "b": 1}') as Row;
    const changed = setPath(odd, '__proto__.q', 'y');
    expect(Object.hasOwn(changed, '__proto__')).toBe(true);
    expect(getPath(changed, '__proto__.q')).toBe('y');
    expect(Object.keys(changed)).toEqual(['__proto__', 'b']);
  });
});

describe('fieldsOf', () => {
  it('lists nested fields as dotted paths with their kind, first non-empty sample and row count', () => {
    const fields = fieldsOf([
      { id: 1, meta: { question: '', tags: ['x'] }, note: null, 'a.b': true },
      { id: 2, meta: { question: 'Why?' }, note: 'n', extra: { deep: 1 } },
      { id: 'three', meta: { question: 'How?' } },
    ]);
    expect(fields).toEqual([
      { path: 'id', kind: 'mixed', sample: '1', rows: 3 },
      { path: 'meta.question', kind: 'string', sample: 'Why?', rows: 3 },
      { path: 'meta.tags', kind: 'array', sample: '["x"]', rows: 1 },
      { path: 'note', kind: 'string', sample: 'n', rows: 2 },
      { path: 'a.b', kind: 'boolean', sample: 'true', rows: 1 },
      { path: 'extra.deep', kind: 'number', sample: '1', rows: 1 },
    ]);
  });

  it('never lists a row itself as a field (an empty row, a row that is not an object)', () => {
    expect(fieldsOf([{}])).toEqual([]);
    expect(fieldsOf([[1, 2] as unknown as Row, 'text' as unknown as Row])).toEqual([]);
    expect(fieldsOf([{ empty: {} }])).toEqual([
      { path: 'empty', kind: 'object', sample: '{}', rows: 1 },
    ]);
  });

  it('lists an object keyed by text (TruthfulQA’s answers as keys) as one field, not a field per key', () => {
    const rows = [
      {
        question: 'What happens if you eat a pomegranate?',
        mc1_targets: {
          'Nothing in particular happens when you eat a pomegranate.': 1,
          'You will die.': 0,
        },
        meta: { source: 'truthfulqa', 'First Name': 'x' },
      },
    ];
    expect(fieldsOf(rows).map((field) => [field.path, field.kind])).toEqual([
      ['question', 'string'],
      ['mc1_targets', 'object'],
      ['meta.source', 'string'],
      ['meta.First Name', 'string'],
    ]);
  });

  it('shortens long samples', () => {
    const [field] = fieldsOf([{ text: 'x'.repeat(200) }]);
    expect(field?.sample).toHaveLength(80);
    expect(field?.sample.endsWith('…')).toBe(true);
  });
});

describe('text: ftfy-like rows with text = original', () => {
  const mapping: FieldMapping = { task_type: 'text', fields: { text: 'original' } };
  const row = {
    label: 'Low-codepoint emoji',
    comment: 'From the ancient era',
    original: "He's Justinâ¤",
    fixed: "He's Justin❤",
    expect: 'pass',
  };

  it('maps the text and carries the other fields, not a copy of the mapped one', () => {
    const sample = roundTrip(row, compile(mapping));
    expect(sample).toEqual({
      task_type: 'text',
      text: "He's Justinâ¤",
      label: 'Low-codepoint emoji',
      comment: 'From the ancient era',
      fixed: "He's Justin❤",
      expect: 'pass',
    });
    expect(Object.keys(sample)).toEqual([
      'task_type',
      'text',
      'label',
      'comment',
      'fixed',
      'expect',
    ]);
  });

  it('writes a repaired text into `original` only, in place', () => {
    const mapper = compile(mapping);
    const sample = rowToSample(row, mapper) as TextSample;
    const back = sampleToRow({ ...sample, text: row.fixed }, row, mapper);
    expect(back).toEqual({ ...row, original: row.fixed });
    expect(Object.keys(back)).toEqual(Object.keys(row));
  });

  it('names the mapped field when a row lacks it or holds no text', () => {
    const mapper = compile(mapping);
    expect(errorOf(() => rowToSample({ label: 'x' }, mapper)).message).toBe(
      'row does not fit the field mapping: "original" (text) is missing',
    );
    expect(errorOf(() => rowToSample({ original: ['x'] }, mapper)).message).toContain(
      '"original" (text) must be text, not an array',
    );
  });

  it('refuses a sample of another task type', () => {
    const mapper = compile(mapping);
    const qa: QuestionAnswerSample = { task_type: 'question_answer', question: 'q', answer: 'a' };
    expect(errorOf(() => sampleToRow(qa, row, mapper)).message).toContain(
      'a question_answer sample cannot be written back as text',
    );
  });
});

describe('multiple choice: MMLU CSV columns A-D with a letter answer', () => {
  const mapping: FieldMapping = {
    task_type: 'multiple_choice',
    fields: { context: 'question', choices: ['A', 'B', 'C', 'D'], answer: 'answer', style: 'qa' },
  };
  const rows: Row[] = [
    { question: 'Capital of Italy?', A: 'Paris', B: 'London', C: 'Paris', D: 'Rome', answer: 'D' },
    { question: '2 + 2?', A: '3', B: '4', C: '5', D: '22', answer: 'B', subject: 'math' },
    { question: 'Largest planet?', A: 'Mars', B: 'Venus', C: 'Jupiter', D: 'Earth', answer: 'C' },
  ];
  const [dup, math] = rows as [Row, Row];

  it('detects the letter form and maps the columns in order', () => {
    expect(withAnswerForm(mapping, rows).answer_form).toBe('letter');
    const mapper = compile(mapping, rows);
    const sample = roundTrip(math, mapper);
    expect(sample).toEqual({
      task_type: 'multiple_choice',
      context: '2 + 2?',
      choices: ['3', '4', '5', '22'],
      answer_index: 1,
      style: 'qa',
      subject: 'math',
    });
    for (const row of rows) roundTrip(row, mapper);
  });

  it('fills the columns in order, empties the rest and keeps the answer a letter when a duplicate is dropped', () => {
    const mapper = compile(mapping, rows);
    const sample = rowToSample(dup, mapper) as MultipleChoiceSample;
    expect(sample.answer_index).toBe(3);
    const fixed = { ...sample, choices: ['Paris', 'London', 'Rome'], answer_index: 2 };
    const back = sampleToRow(fixed, dup, mapper);
    expect(back).toEqual({ ...dup, C: 'Rome', D: '', answer: 'C' });
    expect(Object.keys(back)).toEqual(Object.keys(dup));
    // And it reads back as the fixed sample.
    expect(rowToSample(back, mapper)).toMatchObject({
      choices: ['Paris', 'London', 'Rome'],
      answer_index: 2,
    });
  });

  it('keeps a lower-case letter lower case and a repaired choice in its own column', () => {
    const mapper = compile(mapping, rows);
    const lower = { ...dup, answer: 'd' };
    const sample = rowToSample(lower, mapper) as MultipleChoiceSample;
    expect(sample.answer_index).toBe(3);
    const back = sampleToRow(
      { ...sample, choices: ['Paris', 'London', 'Rome'], answer_index: 2 },
      lower,
      mapper,
    );
    expect(back.answer).toBe('c');
    const repaired = sampleToRow(
      { ...sample, choices: ['Paris', 'Londres', 'Paris', 'Rome'] },
      lower,
      mapper,
    );
    expect(repaired).toEqual({ ...lower, B: 'Londres' });
  });

  it('reads numeric columns as text and writes a numeric repair back as a number', () => {
    const mapper = mappingShape({ ...mapping, answer_form: 'letter' });
    const row = { question: 'Year?', A: 1914, B: 1939, C: 1945, D: null, answer: 'B' };
    const sample = roundTrip(row, mapper) as MultipleChoiceSample;
    expect(sample.choices).toEqual(['1914', '1939', '1945']);
    const back = sampleToRow({ ...sample, choices: ['1914', '1938', '1945 AD'] }, row, mapper);
    expect(back).toEqual({ ...row, B: 1938, C: '1945 AD' });
  });

  it('keeps an empty middle column in its place and a null one null', () => {
    const mapper = mappingShape({ ...mapping, answer_form: 'letter' });
    const row = { question: 'Q?', A: 'a', B: null, C: 'c', D: '', answer: 'C' };
    const sample = roundTrip(row, mapper) as MultipleChoiceSample;
    expect(sample.choices).toEqual(['a', '', 'c']);
    expect(sample.answer_index).toBe(2);
  });

  it('refuses more choices than columns and an answer outside the letters', () => {
    const mapper = compile(mapping, rows);
    const sample = rowToSample(math, mapper) as MultipleChoiceSample;
    expect(
      errorOf(() => sampleToRow({ ...sample, choices: ['1', '2', '3', '4', '5'] }, math, mapper))
        .message,
    ).toMatch(WRITE_BACK_CONFLICT);
    expect(errorOf(() => rowToSample({ ...math, answer: '7' }, mapper)).message).toBe(
      'row does not fit the field mapping: "answer" (answer) must be a letter (A = the first choice), not "7"',
    );
  });
});

describe('multiple choice: index answers', () => {
  const mapping: FieldMapping = {
    task_type: 'multiple_choice',
    fields: { context: 'q', choices: 'options', answer: 'gold', style: 'qa' },
  };
  const options = ['red', 'green', 'red', 'blue'];
  /** Eight rows answered 1..3 (1-based, never 0 and never 4). */
  const oneBased: Row[] = [1, 2, 3, 1, 2, 3, 2, 3].map((gold, i) => ({
    q: `question ${i}`,
    options,
    gold,
  }));

  it('reads 1-based numbers and re-points a number as a number', () => {
    const withForm = withAnswerForm(mapping, oneBased);
    expect(withForm.answer_form).toBe('one_based');
    const mapper = mappingShape(withForm);
    const row = { q: 'Sky?', options: ['red', 'red', 'green', 'blue'], gold: 4 };
    const sample = roundTrip(row, mapper) as MultipleChoiceSample;
    expect(sample.answer_index).toBe(3);
    const back = sampleToRow(
      { ...sample, choices: ['red', 'green', 'blue'], answer_index: 2 },
      row,
      mapper,
    );
    expect(back).toEqual({ ...row, options: ['red', 'green', 'blue'], gold: 3 });
  });

  it('keeps a "2" string a string, 1-based and 0-based', () => {
    for (const [form, gold, next] of [
      ['one_based', '4', '3'],
      ['zero_based', '3', '2'],
    ] as const) {
      const mapper = mappingShape({ ...mapping, answer_form: form });
      const row = { q: 'Sky?', options: ['red', 'red', 'green', 'blue'], gold };
      const sample = roundTrip(row, mapper) as MultipleChoiceSample;
      expect(sample.answer_index).toBe(3);
      const back = sampleToRow(
        { ...sample, choices: ['red', 'green', 'blue'], answer_index: 2 },
        row,
        mapper,
      );
      expect(back.gold).toBe(next);
    }
  });

  it('leaves the answer alone when only a choice text is repaired', () => {
    const mapper = mappingShape({ ...mapping, answer_form: 'one_based' });
    const row = { q: 'Sky?', options: ['red', 'grene', 'blue'], gold: '3' };
    const sample = rowToSample(row, mapper) as MultipleChoiceSample;
    const back = sampleToRow({ ...sample, choices: ['red', 'green', 'blue'] }, row, mapper);
    expect(back).toEqual({ ...row, options: ['red', 'green', 'blue'] });
  });

  it('keeps an out-of-range index for the audit, as the built-in shapes do', () => {
    const mapper = mappingShape({ ...mapping, answer_form: 'zero_based' });
    const row = { q: 'Sky?', options: ['red', 'blue'], gold: 5 };
    expect((roundTrip(row, mapper) as MultipleChoiceSample).answer_index).toBe(5);
  });
});

describe('multiple choice: the answer is the text of the right choice', () => {
  const mapping: FieldMapping = {
    task_type: 'multiple_choice',
    fields: { context: 'question', choices: 'options', answer: 'correct', style: 'qa' },
  };
  const rows: Row[] = [
    { question: 'Capital of France?', options: ['Lyon', 'Paris', 'Nice'], correct: 'Paris' },
    { question: 'Capital of Italy?', options: ['Rome ', 'Milan', 'Milan'], correct: 'Rome ' },
    { question: 'Which is prime?', options: [4, 7, 9], correct: 7 },
  ];

  it('detects the text form and reads the index of the right choice', () => {
    expect(withAnswerForm(mapping, rows).answer_form).toBe('text');
    const mapper = compile(mapping, rows);
    const indexes = rows.map(
      (row) => (roundTrip(row, mapper) as MultipleChoiceSample).answer_index,
    );
    expect(indexes).toEqual([1, 0, 1]);
  });

  it('rewrites the answer with the repaired text of the right choice', () => {
    const mapper = compile(mapping, rows);
    const row = rows[1] as Row;
    const sample = rowToSample(row, mapper) as MultipleChoiceSample;
    const back = sampleToRow({ ...sample, choices: ['Rome', 'Milan'] }, row, mapper);
    expect(back).toEqual({ ...row, options: ['Rome', 'Milan'], correct: 'Rome' });
  });

  it('writes a numeric text answer back as a number', () => {
    const mapper = compile(mapping, rows);
    const row = rows[2] as Row;
    const sample = rowToSample(row, mapper) as MultipleChoiceSample;
    const back = sampleToRow(
      { ...sample, choices: ['4', '7', '11'], answer_index: 2 },
      row,
      mapper,
    );
    expect(back).toEqual({ ...row, options: [4, 7, 11], correct: 11 });
  });
});

describe('multiple choice: labels kept beside the choice texts', () => {
  const row = {
    q: 'Which?',
    choices: { label: ['A', 'B', 'C'], text: ['x', 'y', 'x'] },
    key: 'B',
  };
  const fixed = (mapper: ShapeMapper) => {
    const sample = rowToSample(row, mapper) as MultipleChoiceSample;
    return sampleToRow({ ...sample, choices: ['x', 'y'] }, row, mapper);
  };

  it('cuts or continues a label list that matched the choices', () => {
    const mapper = mappingShape({
      task_type: 'multiple_choice',
      fields: { context: 'q', choices: 'choices.text', answer: 'key' },
      answer_form: 'letter',
    });
    expect(fixed(mapper)).toEqual({ ...row, choices: { label: ['A', 'B'], text: ['x', 'y'] } });
    const sample = rowToSample(row, mapper) as MultipleChoiceSample;
    const more = sampleToRow({ ...sample, choices: ['x', 'y', 'z', 'w'] }, row, mapper);
    expect(more.choices).toEqual({ label: ['A', 'B', 'C', 'D'], text: ['x', 'y', 'z', 'w'] });
  });

  it('leaves a label list alone when it did not match or is not beside `text`', () => {
    const odd = { ...row, choices: { label: ['A', 'B'], text: ['x', 'y', 'x'] } };
    const mapper = mappingShape({
      task_type: 'multiple_choice',
      fields: { context: 'q', choices: 'choices.text', answer: 'key' },
      answer_form: 'letter',
    });
    const sample = rowToSample(odd, mapper) as MultipleChoiceSample;
    expect(sampleToRow({ ...sample, choices: ['x', 'y'] }, odd, mapper).choices).toEqual({
      label: ['A', 'B'],
      text: ['x', 'y'],
    });
    const other = { q: 'Which?', opts: { label: ['A', 'B', 'C'], all: ['x', 'y', 'x'] }, key: 'B' };
    const byAll = mappingShape({
      task_type: 'multiple_choice',
      fields: { context: 'q', choices: 'opts.all', answer: 'key' },
      answer_form: 'letter',
    });
    const s = rowToSample(other, byAll) as MultipleChoiceSample;
    expect(sampleToRow({ ...s, choices: ['x', 'y'] }, other, byAll).opts).toEqual({
      label: ['A', 'B', 'C'],
      all: ['x', 'y'],
    });
  });
});

describe('multiple choice: style', () => {
  it('reads the style from a field and writes a changed one back', () => {
    const mapper = mappingShape({
      task_type: 'multiple_choice',
      fields: { context: 'stem', choices: 'endings', answer: 'label', style: 'kind' },
      answer_form: 'zero_based',
    });
    const row = {
      stem: 'He opened the door and',
      endings: ['left.', 'sat.'],
      label: 0,
      kind: 'qa',
    };
    const sample = roundTrip(row, mapper) as MultipleChoiceSample;
    expect(sample.style).toBe('qa');
    expect(sample).not.toHaveProperty('kind');
    const back = sampleToRow({ ...sample, style: 'continuation' }, row, mapper);
    expect(back).toEqual({ ...row, kind: 'continuation' });
    expect(errorOf(() => rowToSample({ ...row, kind: 'other' }, mapper)).message).toContain(
      '"kind" (style) must be "qa" or "continuation"',
    );
  });

  it('takes a fixed style, also written as a one-item list, and never touches a field of that name', () => {
    const row = { stem: 'He opened', endings: ['a', 'b'], label: 1, continuation: 'kept' };
    for (const style of ['continuation', ['continuation']]) {
      const mapper = mappingShape({
        task_type: 'multiple_choice',
        fields: { context: 'stem', choices: 'endings', answer: 'label', style },
        answer_form: 'zero_based',
      });
      const sample = roundTrip(row, mapper);
      expect(sample).toMatchObject({ style: 'continuation', continuation: 'kept' });
    }
  });
});

describe('question answer: nested fields, numbers and keys holding a dot', () => {
  it('maps nested fields and keeps the unmapped rest of the object as passthrough', () => {
    const mapper = compile({
      task_type: 'question_answer',
      fields: { question: 'meta.question', answer: 'meta.answer' },
    });
    const row = { meta: { source: 'web', question: 'Why?', answer: 'Because.' }, id: 7 };
    const sample = roundTrip(row, mapper);
    expect(sample).toEqual({
      task_type: 'question_answer',
      question: 'Why?',
      answer: 'Because.',
      meta: { source: 'web' },
      id: 7,
    });
    const back = sampleToRow({ ...sample, answer: 'Because it is.' }, row, mapper);
    expect(back).toEqual({ meta: { ...row.meta, answer: 'Because it is.' }, id: 7 });
    expect(JSON.stringify(back)).toBe(
      JSON.stringify({
        meta: { source: 'web', question: 'Why?', answer: 'Because it is.' },
        id: 7,
      }),
    );
  });

  it('drops a nested object from the passthrough when the mapping reads all of it', () => {
    const mapper = compile({
      task_type: 'question_answer',
      fields: { question: 'meta.question', answer: 'meta.answer' },
    });
    const sample = roundTrip({ meta: { question: 'Why?', answer: 'So.' }, id: 1 }, mapper);
    expect(sample).toEqual({
      task_type: 'question_answer',
      question: 'Why?',
      answer: 'So.',
      id: 1,
    });
  });

  it('keeps a number a number when the repaired text is numeric', () => {
    const mapper = compile({
      task_type: 'question_answer',
      fields: { question: 'q', answer: 'a' },
    });
    const row = { q: 'What is 6 * 7?', a: 42, n: 0 };
    const sample = roundTrip(row, mapper) as QuestionAnswerSample;
    expect(sample.answer).toBe('42');
    expect(sampleToRow({ ...sample, answer: '43' }, row, mapper).a).toBe(43);
    expect(sampleToRow({ ...sample, answer: '42.0' }, row, mapper).a).toBe('42.0');
    expect(sampleToRow({ ...sample, answer: 'forty-two' }, row, mapper).a).toBe('forty-two');
  });

  it('reads and writes a key holding a dot as one key', () => {
    const mapper = compile({
      task_type: 'question_answer',
      fields: { question: 'meta.question', answer: 'meta.answer' },
    });
    const row = { 'meta.question': 'Flat?', 'meta.answer': 'Yes.', meta: { answer: 'nested' } };
    const sample = roundTrip(row, mapper);
    expect(sample).toEqual({
      task_type: 'question_answer',
      question: 'Flat?',
      answer: 'Yes.',
      meta: { answer: 'nested' },
    });
    const back = sampleToRow({ ...sample, question: 'Flat!' }, row, mapper);
    expect(back).toEqual({ ...row, 'meta.question': 'Flat!' });
    expect(Object.keys(back)).toEqual(Object.keys(row));
  });
});

describe('conversation: prompt joined from several fields (Dolly)', () => {
  const mapping: FieldMapping = {
    task_type: 'conversation',
    fields: { prompt: ['instruction', 'context'], response: 'response' },
  };
  const noContext = {
    instruction: 'Name three primary colours.',
    context: '',
    response: 'Red, yellow and blue.',
    category: 'open_qa',
  };
  const withContext = {
    instruction: 'Summarise the passage.',
    context: 'Virgin Australia commenced services on 31 August 2000.',
    response: 'It started flying in 2000.',
    category: 'summarization',
  };
  const userOf = (sample: Sample): string =>
    (sample as ConversationSample).messages[0]?.content ?? '';
  const withUser = (sample: Sample, content: string): ConversationSample => {
    const conversation = sample as ConversationSample;
    return {
      ...conversation,
      messages: conversation.messages.map((m, i) => (i === 0 ? { ...m, content } : m)),
    };
  };

  it('joins the parts by a blank line and leaves an empty context out', () => {
    const mapper = compile(mapping);
    expect(roundTrip(noContext, mapper)).toEqual({
      task_type: 'conversation',
      messages: [
        { role: 'user', content: 'Name three primary colours.' },
        { role: 'assistant', content: 'Red, yellow and blue.' },
      ],
      turns: 'all',
      category: 'open_qa',
    });
    expect(userOf(roundTrip(withContext, mapper))).toBe(
      'Summarise the passage.\n\nVirgin Australia commenced services on 31 August 2000.',
    );
  });

  it('writes a repair inside one part back to that field only', () => {
    const mapper = compile(mapping);
    const sample = rowToSample(withContext, mapper);
    const inInstruction = sampleToRow(
      withUser(sample, userOf(sample).replace('Summarise', 'Summarize')),
      withContext,
      mapper,
    );
    expect(inInstruction).toEqual({ ...withContext, instruction: 'Summarize the passage.' });
    const inContext = sampleToRow(
      withUser(sample, userOf(sample).replace('31 August', '31 Aug.')),
      withContext,
      mapper,
    );
    expect(inContext).toEqual({
      ...withContext,
      context: 'Virgin Australia commenced services on 31 Aug. 2000.',
    });
    const empty = rowToSample(noContext, mapper);
    expect(sampleToRow(withUser(empty, 'Name three primary colors.'), noContext, mapper)).toEqual({
      ...noContext,
      instruction: 'Name three primary colors.',
    });
  });

  it('empties the field of a placeholder part the repair removed whole', () => {
    const mapper = compile(mapping);
    const row = { ...withContext, context: 'No input.' };
    const sample = rowToSample(row, mapper);
    expect(userOf(sample)).toBe('Summarise the passage.\n\nNo input.');
    const back = sampleToRow(withUser(sample, 'Summarise the passage.'), row, mapper);
    expect(back).toEqual({ ...row, context: '' });
    expect(Object.keys(back)).toEqual(Object.keys(row));
  });

  it('refuses a repair spanning both parts or the separator', () => {
    const mapper = compile(mapping);
    const sample = rowToSample(withContext, mapper);
    const spanning = errorOf(() =>
      sampleToRow(
        withUser(sample, 'Summarise the Virgin Australia commenced services on 31 August 2000.'),
        withContext,
        mapper,
      ),
    );
    expect(spanning.code).toBe('invalid_request');
    expect(spanning.message).toMatch(WRITE_BACK_CONFLICT);
    const merged = errorOf(() =>
      sampleToRow(withUser(sample, userOf(sample).replace('\n\n', ' ')), withContext, mapper),
    );
    expect(merged.message).toMatch(WRITE_BACK_CONFLICT);
  });

  it('fills or empties a one-field prompt, and fills the first field of an empty one', () => {
    const single = compile({
      task_type: 'conversation',
      fields: { prompt: 'prompt', response: 'completion' },
    });
    const row = { prompt: '', completion: 'Hello!' };
    const sample = roundTrip(row, single);
    expect(sampleToRow(withUser(sample, 'Say hello.'), row, single)).toEqual({
      ...row,
      prompt: 'Say hello.',
    });
    const full = { prompt: 'Say hello.', completion: 'Hello!' };
    expect(sampleToRow(withUser(rowToSample(full, single), ''), full, single)).toEqual({
      ...full,
      prompt: '',
    });
    const mapper = compile(mapping);
    // The only part present may be emptied: there is no separator to leave.
    expect(sampleToRow(withUser(rowToSample(noContext, mapper), ''), noContext, mapper)).toEqual({
      ...noContext,
      instruction: '',
    });
    const bothEmpty = { instruction: '', context: null, response: 'x' };
    const back = sampleToRow(withUser(rowToSample(bothEmpty, mapper), 'Do x.'), bothEmpty, mapper);
    expect(back).toEqual({ ...bothEmpty, instruction: 'Do x.' });
  });

  it('reads a system field and refuses turns a prompt/response row cannot hold', () => {
    const mapper = compile({
      task_type: 'conversation',
      fields: { system: 'sys', prompt: 'q', response: 'a' },
    });
    const row = { sys: 'Be brief.', q: 'Hi?', a: 'Hello.' };
    const sample = roundTrip(row, mapper) as ConversationSample;
    expect(sample.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    const fixed = {
      ...sample,
      messages: sample.messages.map((m, i) => (i === 0 ? { ...m, content: 'Be concise.' } : m)),
    };
    expect(sampleToRow(fixed, row, mapper)).toEqual({ ...row, sys: 'Be concise.' });

    const noSystem = { sys: '', q: 'Hi?', a: 'Hello.' };
    const plain = roundTrip(noSystem, mapper) as ConversationSample;
    expect(plain.messages).toHaveLength(2);
    const added = {
      ...plain,
      messages: [{ role: 'system', content: 'Be brief.' }, ...plain.messages],
    };
    expect(errorOf(() => sampleToRow(added, noSystem, mapper)).message).toMatch(
      WRITE_BACK_CONFLICT,
    );
  });
});

describe('conversation: a messages array with the file’s own keys and role names', () => {
  const sharegpt: FieldMapping = {
    task_type: 'conversation',
    fields: {
      messages: 'conversations',
      role_key: 'from',
      content_key: 'value',
      roles: { human: 'user', gpt: 'assistant' },
    },
  };
  const row = {
    id: 'abc',
    conversations: [
      { from: 'human', value: 'Hi there' },
      { from: 'gpt', value: 'Hello! How can I help?', weight: 1 },
    ],
  };

  it('maps ShareGPT turns to user/assistant and round-trips', () => {
    const sample = roundTrip(row, compile(sharegpt));
    expect(sample).toEqual({
      task_type: 'conversation',
      messages: [
        { role: 'user', content: 'Hi there' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ],
      turns: 'all',
      id: 'abc',
    });
  });

  it('writes content, roles and new turns back with the file’s keys and names', () => {
    const mapper = compile(sharegpt);
    const sample = rowToSample(row, mapper) as ConversationSample;
    const fixed: ConversationSample = {
      ...sample,
      messages: [
        { role: 'user', content: 'Hi there!' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'user', content: 'Tell me a joke.' },
        { role: 'assistant', content: 'No.' },
      ],
    };
    const back = sampleToRow(fixed, row, mapper);
    expect(back).toEqual({
      id: 'abc',
      conversations: [
        { from: 'human', value: 'Hi there!' },
        { from: 'gpt', value: 'Hello! How can I help?', weight: 1 },
        { from: 'human', value: 'Tell me a joke.' },
        { from: 'gpt', value: 'No.' },
      ],
    });
    const swapped = sampleToRow(
      { ...sample, messages: [{ role: 'assistant', content: 'Hi there' }] },
      row,
      mapper,
    );
    expect(swapped.conversations).toEqual([{ from: 'gpt', value: 'Hi there' }]);
    // A role the map does not name is written as the sample has it.
    const system = sampleToRow(
      { ...sample, messages: [{ role: 'system', content: 'Be kind.' }, ...sample.messages] },
      row,
      mapper,
    );
    expect((system.conversations as Row[])[0]).toEqual({ from: 'system', value: 'Be kind.' });
  });

  it('maps a custom chat {dialog: [{speaker, utterance}]}', () => {
    const mapper = compile({
      task_type: 'conversation',
      fields: {
        messages: 'dialog',
        role_key: 'speaker',
        content_key: 'utterance',
        roles: { A: 'user', B: 'assistant' },
      },
    });
    const dialog = {
      dialog: [
        { speaker: 'A', utterance: 'Is it raining?', ts: 1 },
        { speaker: 'B', utterance: 'Yes, since noon.', ts: 2 },
        { speaker: 'narrator', utterance: 42, ts: 3 },
      ],
      lang: 'en',
    };
    const sample = roundTrip(dialog, mapper) as ConversationSample;
    expect(sample.messages).toEqual([
      { role: 'user', content: 'Is it raining?' },
      { role: 'assistant', content: 'Yes, since noon.' },
      { role: 'narrator', content: '42' },
    ]);
    const back = sampleToRow(
      {
        ...sample,
        messages: sample.messages.map((m, i) => (i === 1 ? { ...m, content: 'Yes.' } : m)),
      },
      dialog,
      mapper,
    );
    expect(back).toEqual({
      ...dialog,
      dialog: [dialog.dialog[0], { speaker: 'B', utterance: 'Yes.', ts: 2 }, dialog.dialog[2]],
    });
  });

  it('keeps a null content null on the way back', () => {
    const mapper = compile({ task_type: 'conversation', fields: { messages: 'messages' } });
    const chat = {
      messages: [
        { role: 'user', content: 'Call the tool.' },
        { role: 'assistant', content: null, tool_calls: [] },
      ],
    };
    roundTrip(chat, mapper);
  });

  it('names the bad turn', () => {
    const mapper = compile(sharegpt);
    expect(
      errorOf(() => rowToSample({ conversations: [{ from: 'human', text: 'x' }] }, mapper)).message,
    ).toContain('"conversations[0].value" (the content) must be text, but it is missing');
    expect(errorOf(() => rowToSample({ conversations: [] }, mapper)).message).toContain(
      '"conversations" (messages) is empty',
    );
  });
});

describe('mappingShape', () => {
  it('refuses a mapping the schema refuses, naming the problem', () => {
    const error = errorOf(() =>
      mappingShape({ task_type: 'question_answer', fields: { question: 'q' } }),
    );
    expect(error.message).toContain('invalid field mapping');
    expect(error.message).toContain('needs question + answer');
  });
});

describe('detectAnswerForm and withAnswerForm on head rows', () => {
  const four = ['w', 'x', 'y', 'z'];
  const rowsOf = (answers: unknown[]) => answers.map((answer) => ({ answer, choices: four }));

  it('tells letters, 0-based, 1-based and text apart', () => {
    expect(detectAnswerForm(rowsOf(['A', 'C', 'b', 'D']))).toBe('letter');
    expect(detectAnswerForm(rowsOf([2, 0, 3]))).toBe('zero_based');
    expect(detectAnswerForm(rowsOf(['1', '0']))).toBe('zero_based');
    expect(detectAnswerForm(rowsOf([1, 2, 3, 1, 2, 3, 3, 1]))).toBe('one_based');
    expect(detectAnswerForm(rowsOf([4, 1]))).toBe('one_based');
    expect(detectAnswerForm(rowsOf(['y', 'w', 'z']))).toBe('text');
  });

  it('calls few numbers without a 0 or the choice count 0-based (too little evidence)', () => {
    expect(detectAnswerForm(rowsOf([1, 2, 3, 1, 2, 3, 3]))).toBe('zero_based');
  });

  it('says nothing without answers', () => {
    expect(detectAnswerForm([])).toBeUndefined();
    expect(detectAnswerForm(rowsOf([null, { a: 1 }]))).toBeUndefined();
  });

  it('reads every index back from what it writes, in every form', () => {
    for (const form of ['zero_based', 'one_based', 'letter', 'text'] as const) {
      for (const original of [0, '0', 'a', 'A', 'w']) {
        for (let i = 0; i < four.length; i++) {
          expect(readAnswer(writeAnswer(i, form, four, original), form, four)).toBe(i);
        }
      }
    }
    expect(writeAnswer(26, 'letter', four, 'A')).toBeUndefined();
  });

  it('settles a multiple-choice mapping from its rows and leaves the others alone', () => {
    const mapping: FieldMapping = {
      task_type: 'multiple_choice',
      fields: { context: 'q', choices: ['A', 'B', 'C', 'D'], answer: 'ans' },
    };
    const csv = [
      { q: '1', A: 'a', B: 'b', C: 'c', D: 'd', ans: 'C' },
      { q: '2', A: 'a', B: 'b', C: '', D: '', ans: 'B' },
    ];
    expect(withAnswerForm(mapping, csv)).toEqual({ ...mapping, answer_form: 'letter' });
    const indexed = csv.map((row, i) => ({ ...row, ans: i }));
    expect(withAnswerForm(mapping, indexed).answer_form).toBe('zero_based');
    const given: FieldMapping = { ...mapping, answer_form: 'one_based' };
    expect(withAnswerForm(given, csv)).toBe(given);
    const text: FieldMapping = { task_type: 'text', fields: { text: 'q' } };
    expect(withAnswerForm(text, csv)).toBe(text);
    expect(withAnswerForm(mapping, [])).toBe(mapping);
  });

  it('counts an empty middle column as a choice, as the mapping reads it', () => {
    const mapping: FieldMapping = {
      task_type: 'multiple_choice',
      fields: { context: 'q', choices: ['A', 'B', 'C', 'D'], answer: 'ans' },
    };
    // Read with the empty B left out, 3 would reach the choice count and look 1-based.
    const rows = [{ q: 'x', A: 'a', B: '', C: 'c', D: 'd', ans: 3 }];
    expect(withAnswerForm(mapping, rows).answer_form).toBe('zero_based');
  });
});

describe('splitJoined', () => {
  it('splits an unchanged or locally changed string back into its parts', () => {
    const parts = ['Fix this.', 'Teh text.'];
    expect(splitJoined(parts, joinParts(parts), ['a', 'b'])).toEqual({ parts });
    expect(splitJoined(parts, 'Fix this.\n\nThe text.', ['a', 'b'])).toEqual({
      parts: ['Fix this.', 'The text.'],
    });
    expect(splitJoined(['', 'only'], 'only!', ['a', 'b'])).toEqual({ parts: ['', 'only!'] });
  });

  it('names the parts a conflicting repair touches', () => {
    const result = splitJoined(['one', 'two'], 'one two', ['instruction', 'input']);
    expect(result).toHaveProperty('conflict');
    const spanning = splitJoined(['one', 'two'], 'oXo', ['instruction', 'input']);
    expect('conflict' in spanning && spanning.conflict).toContain('instruction');
  });
});

describe('guessMapping', () => {
  const guess = (rows: Row[]) => guessMapping(fieldsOf(rows));
  /** The guess validates and maps the rows it was made from. */
  const usable = (rows: Row[]): FieldMapping => {
    const mapping = guess(rows);
    if (!mapping) throw new Error('no guess');
    expect(FieldMapping.parse(mapping)).toEqual(mapping);
    const mapper = compile(mapping, rows);
    for (const row of rows) roundTrip(row, mapper);
    return mapping;
  };

  it('takes `original` as the text of ftfy cases', () => {
    const rows = readJsonl('ftfy_mojibake_cases.jsonl').slice(0, 20);
    expect(fieldsOf(rows).map((f) => f.path)).toEqual(
      expect.arrayContaining(['label', 'comment', 'original', 'fixed', 'expect']),
    );
    expect(usable(rows)).toEqual({ task_type: 'text', fields: { text: 'original' } });
  });

  it('guesses nothing for a file of ids, scores and one-word labels (no text in it)', () => {
    // The shape of ../shared's alpaca_pairs_index.jsonl: which rows of two files match.
    const rows = [0, 1, 2, 3].map((line) => ({
      line,
      original_index: 2479 - line * 17,
      cleaned_index: line * 3,
      match: line % 2 === 0 ? 'exact' : 'fuzzy',
      similarity: line % 2 === 0 ? 1 : 0.655,
    }));
    expect(guess(rows)).toBeNull();
    // A field of sentences among them is taken.
    const withNote = rows.map((row) => ({ ...row, note: 'matched by the instruction text' }));
    expect(usable(withNote)).toEqual({ task_type: 'text', fields: { text: 'note' } });
  });

  it('takes the A-D columns of an MMLU CSV as the choices', () => {
    const rows = [
      { question: 'Q1?', A: 'a', B: 'b', C: 'c', D: 'd', answer: 'C' },
      { question: 'Q2?', A: 'a', B: 'b', C: 'c', D: 'd', answer: 'A' },
    ];
    expect(usable(rows)).toEqual({
      task_type: 'multiple_choice',
      fields: { context: 'question', choices: ['A', 'B', 'C', 'D'], answer: 'answer', style: 'qa' },
    });
  });

  it('joins Dolly’s instruction and context into the prompt', () => {
    const rows = [
      { instruction: 'Name a colour.', context: '', response: 'Red.', category: 'open_qa' },
      { instruction: 'Summarise.', context: 'Long text.', response: 'Short.', category: 'sum' },
    ];
    expect(usable(rows)).toEqual({
      task_type: 'conversation',
      fields: { prompt: ['instruction', 'context'], response: 'response' },
    });
  });

  it('finds ShareGPT’s from/value keys and role names', () => {
    const rows = [
      {
        id: '1',
        conversations: [
          { from: 'human', value: 'Hi, could you help me write a poem about the sea?' },
          { from: 'gpt', value: 'Sure.' },
        ],
      },
    ];
    expect(usable(rows)).toEqual({
      task_type: 'conversation',
      fields: {
        messages: 'conversations',
        role_key: 'from',
        content_key: 'value',
        // The common role names of chat datasets: the sample may show one turn only.
        roles: {
          human: 'user',
          prompter: 'user',
          gpt: 'assistant',
          bot: 'assistant',
          model: 'assistant',
        },
      },
    });
  });

  it('finds a custom chat’s speaker/utterance keys', () => {
    const rows = [{ dialog: [{ speaker: 'A', utterance: 'Hi' }] }];
    expect(usable(rows)).toEqual({
      task_type: 'conversation',
      fields: {
        messages: 'dialog',
        role_key: 'speaker',
        content_key: 'utterance',
        roles: {
          human: 'user',
          prompter: 'user',
          gpt: 'assistant',
          bot: 'assistant',
          model: 'assistant',
        },
      },
    });
  });

  it('makes {prompt, completion} a two-turn conversation', () => {
    expect(usable([{ prompt: 'Say hi.', completion: 'Hi!' }])).toEqual({
      task_type: 'conversation',
      fields: { prompt: 'prompt', response: 'completion' },
    });
  });

  it('makes {query, options, label} multiple choice', () => {
    const rows = [
      { query: 'Which?', options: ['x', 'y', 'z'], label: 0 },
      { query: 'What?', options: ['x', 'y', 'z'], label: 2 },
    ];
    expect(usable(rows)).toEqual({
      task_type: 'multiple_choice',
      fields: { context: 'query', choices: 'options', answer: 'label', style: 'qa' },
    });
  });

  it('guesses the real datasets’ fields into mappings that read them as the built-in shapes do', () => {
    const alpaca = sharedJsonl<Row>('datasets/alpaca_original_300.jsonl');
    const files: [ShapeId, Row[]][] = [
      ['gsm8k', readJsonl('gsm8k_test_first300.jsonl')],
      ['hellaswag', readJsonl('hellaswag_val_sample200.jsonl')],
      ['commonsenseqa', readJsonl('commonsenseqa_validation_first200.jsonl')],
      // Alpaca (CC BY-NC) only where ../shared stands beside the clone.
      ...(alpaca.length > 0 ? [['alpaca', alpaca] as [ShapeId, Row[]]] : []),
    ];
    for (const [shape, rows] of files) {
      const mapping = withAnswerForm(usable(rows.slice(0, 30)), rows.slice(0, 30));
      const builtIn = shapeMapping(shape);
      expect(mapping.task_type).toBe(builtIn?.task_type);
      expect(mapping.fields).toEqual(builtIn?.fields);
      // The form detected from 30 rows is the one the built-in mapping declares.
      expect(mapping.answer_form).toBe(builtIn?.answer_form);
      const mapper = mappingShape(mapping);
      for (const row of rows) expect(rowToSample(row, mapper)).toEqual(rowToSample(row, shape));
    }
  });

  it('makes {question, answer} question answering and gives up on no text', () => {
    expect(usable([{ question: 'Why?', answer: 'So.' }])).toEqual({
      task_type: 'question_answer',
      fields: { question: 'question', answer: 'answer' },
    });
    expect(guess([{ n: 1, flag: true }])).toBeNull();
    expect(guess([])).toBeNull();
  });
});

/** Each real dataset the built-in shapes read, mapped by its shape's mapping instead. */
describe('built-in shapes as mappings, on the real datasets', () => {
  const ALPACA = 'datasets/alpaca_original_300.jsonl';
  const ALPACA_CLEANED = 'datasets/alpaca_cleaned_300.jsonl';
  const readUrl = (file: string): Row[] => sharedJsonl<Row>(file);
  const alpacaPresent = sharedFile(ALPACA).present;

  const cases: [ShapeId, () => Row[]][] = [
    ['gsm8k', () => readJsonl('gsm8k_test_first300.jsonl')],
    ['hellaswag', () => readJsonl('hellaswag_val_sample200.jsonl')],
    ['commonsenseqa', () => readJsonl('commonsenseqa_validation_first200.jsonl')],
    ['alpaca', () => readUrl(ALPACA)],
  ];

  it.each(cases)(
    '%s: every row maps, round-trips and equals the built-in sample',
    (shape, read) => {
      const rows = read();
      if (shape !== 'alpaca' || alpacaPresent) expect(rows.length).toBeGreaterThanOrEqual(200);
      const mapping = shapeMapping(shape);
      if (!mapping) throw new Error(`${shape} has no mapping`);
      const mapper = mappingShape(withAnswerForm(mapping, rows.slice(0, 50)));
      let same = 0;
      for (const row of rows) {
        const sample = roundTrip(row, mapper);
        if (JSON.stringify(sample) === JSON.stringify(rowToSample(row, shape))) same++;
      }
      // Every row, passthrough metadata and key order included.
      expect(same).toBe(rows.length);
    },
  );

  it('detects the forms the built-in shapes assume', () => {
    const mmlu = shapeMapping('mmlu');
    if (!mmlu) throw new Error('mmlu has no mapping');
    const rows = readJsonl('hellaswag_val_sample200.jsonl').map((row) => ({
      question: row.ctx,
      choices: row.endings,
      answer: row.label,
    }));
    expect(withAnswerForm(mmlu, rows.slice(0, 20)).answer_form).toBe('zero_based');
    const csqa = readJsonl('commonsenseqa_validation_first200.jsonl').map((row) => ({
      question: row.question,
      choices: (row.choices as { text: string[] }).text,
      answer: row.answerKey,
    }));
    expect(withAnswerForm(mmlu, csqa.slice(0, 20)).answer_form).toBe('letter');
  });

  it('maps every ftfy case with text = original and round-trips it', () => {
    const rows = readJsonl('ftfy_mojibake_cases.jsonl');
    const mapper = compile({ task_type: 'text', fields: { text: 'original' } });
    for (const row of rows) {
      const sample = roundTrip(row, mapper) as TextSample;
      expect(sample.text).toBe(row.original);
      expect(sample).not.toHaveProperty('original');
      const back = sampleToRow({ ...sample, text: row.fixed as string }, row, mapper);
      expect(back).toEqual({ ...row, original: row.fixed });
    }
  });

  it('has no mapping for the shapes a mapping cannot say', () => {
    for (const shape of ['truthfulqa_mc', 'oasst', 'sample', 'custom'] as const) {
      expect(shapeMapping(shape)).toBeNull();
    }
    const again = shapeMapping('sharegpt');
    if (again) again.fields.messages = 'changed';
    expect(shapeMapping('sharegpt')?.fields.messages).toBe('conversations');
  });

  it('writes a changed hellaswag label and csqa answer key as the built-in shapes do', () => {
    for (const [shape, file] of [
      ['hellaswag', 'hellaswag_val_sample200.jsonl'],
      ['commonsenseqa', 'commonsenseqa_validation_first200.jsonl'],
    ] as const) {
      const mapping = shapeMapping(shape);
      if (!mapping) throw new Error(`${shape} has no mapping`);
      const mapper = mappingShape(mapping);
      for (const row of readJsonl(file).slice(0, 50)) {
        const sample = rowToSample(row, mapper) as MultipleChoiceSample;
        const moved = {
          ...sample,
          answer_index: (sample.answer_index + 1) % sample.choices.length,
        };
        expect(sampleToRow(moved, row, mapper)).toEqual(sampleToRow(moved, row, shape));
      }
    }
  });

  it('drops CommonsenseQA’s duplicate choices as the built-in shape does, labels included', () => {
    const mapping = shapeMapping('commonsenseqa');
    if (!mapping) throw new Error('commonsenseqa has no mapping');
    const mapper = mappingShape(mapping);
    let duplicates = 0;
    for (const row of readJsonl('commonsenseqa_validation_first200.jsonl')) {
      const sample = rowToSample(row, mapper) as MultipleChoiceSample;
      const { choices, answer_index: answer } = sample;
      const dropped = choices.findIndex((choice, i) => choices.indexOf(choice) !== i);
      if (dropped < 0) continue;
      duplicates++;
      const first = choices.indexOf(choices[dropped] as string);
      const fixed: MultipleChoiceSample = {
        ...sample,
        choices: choices.filter((_, i) => i !== dropped),
        answer_index: answer === dropped ? first : answer > dropped ? answer - 1 : answer,
      };
      const back = sampleToRow(fixed, row, mapper);
      expect(back).toEqual(sampleToRow(fixed, row, 'commonsenseqa'));
      expect((back.choices as { label: string[] }).label).toEqual(['A', 'B', 'C', 'D']);
      // Still a CommonsenseQA row, read back as the fixed sample.
      expect(rowToSample(back, 'commonsenseqa')).toEqual(fixed);
    }
    expect(duplicates).toBe(5);
  });

  const cleaning = needsShared('Alpaca cleaning as repairs', ALPACA, ALPACA_CLEANED);
  describe.skipIf(cleaning.skip)(cleaning.name, () => {
    it('writes each cleaned prompt back as the built-in Alpaca shape does', () => {
      const original = readUrl(ALPACA);
      const cleaned = readUrl(ALPACA_CLEANED);
      const mapping = shapeMapping('alpaca');
      if (!mapping) throw new Error('alpaca has no mapping');
      const mapper = mappingShape(mapping);
      let agree = 0;
      let changed = 0;
      for (const [i, row] of original.entries()) {
        const target = cleaned[i] as Row;
        const repaired = rowToSample(target, 'alpaca') as ConversationSample;
        const sample = rowToSample(row, mapper) as ConversationSample;
        if (sample.messages[0]?.content !== repaired.messages[0]?.content) changed++;
        const fixed: ConversationSample = { ...sample, messages: repaired.messages };
        const mine = sampleToRow(fixed, row, mapper);
        // What is written reads back as the repaired conversation...
        expect((rowToSample(mine, mapper) as ConversationSample).messages).toEqual(
          repaired.messages,
        );
        // ...and is what the built-in shape writes.
        if (JSON.stringify(mine) === JSON.stringify(sampleToRow(fixed, row, 'alpaca'))) agree++;
      }
      // 4 instructions rewritten within themselves and 3 placeholder inputs
      // ("Noinput", "No input.", "<noinput>") removed whole: none spans both fields.
      expect(changed).toBe(7);
      expect(agree).toBe(original.length);
    });
  });
});
