import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import {
  Sample,
  type ConversationSample,
  type MultipleChoiceSample,
} from '../../../src-shared/schemas/sample.ts';
import {
  SHAPES,
  detectShape,
  matchesShape,
  rowToSample,
  sampleToRow,
  type ShapeId,
} from './index.ts';

type Row = Record<string, unknown>;

function roundTrip(row: Row, shape: ShapeId): Sample {
  const sample = rowToSample(row, shape);
  expect(Sample.parse(sample)).toEqual(sample);
  expect(JSON.stringify(sampleToRow(sample, row, shape))).toBe(JSON.stringify(row));
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

describe('SHAPES', () => {
  it('lists every shape once, sample first and plain text last', () => {
    const ids = SHAPES.map((s) => s.id);
    expect(new Set(ids).size).toBe(12);
    expect(ids[0]).toBe('sample');
    expect(ids.at(-1)).toBe('text');
    expect(ids.indexOf('commonsenseqa')).toBeLessThan(ids.indexOf('arc'));
    for (const shape of SHAPES) expect(shape.label && shape.description).toBeTruthy();
  });
});

describe('MMLU', () => {
  const row = {
    question: 'What is 2 + 2?',
    subject: 'elementary_mathematics',
    choices: ['3', '4', '5', '22'],
    answer: 1,
  };

  it('maps an integer answer and writes it back as an integer', () => {
    expect(detectShape([row])?.shape).toBe('mmlu');
    const sample = roundTrip(row, 'mmlu');
    expect(sample).toEqual({
      task_type: 'multiple_choice',
      context: 'What is 2 + 2?',
      choices: ['3', '4', '5', '22'],
      answer_index: 1,
      style: 'qa',
      subject: 'elementary_mathematics',
    });
    expect(sampleToRow({ ...sample, answer_index: 3 }, row, 'mmlu')).toEqual({ ...row, answer: 3 });
  });

  it('maps a letter answer and writes it back as a letter', () => {
    const lettered = { ...row, answer: 'B' };
    expect(detectShape([lettered])?.shape).toBe('mmlu'); // over GSM8K, which it also matches
    const sample = roundTrip(lettered, 'mmlu') as MultipleChoiceSample;
    expect(sample.answer_index).toBe(1);
    expect(sampleToRow({ ...sample, answer_index: 2 }, lettered, 'mmlu').answer).toBe('C');
  });

  it('takes an index given as text (as CSV files have it)', () => {
    const texted = { ...row, answer: '2' };
    const sample = roundTrip(texted, 'mmlu') as MultipleChoiceSample;
    expect(sample.answer_index).toBe(2);
    expect(sampleToRow({ ...sample, answer_index: 0 }, texted, 'mmlu').answer).toBe('0');
  });

  it('keeps an out-of-range answer for the audit to report', () => {
    expect((rowToSample({ ...row, answer: 7 }, 'mmlu') as MultipleChoiceSample).answer_index).toBe(
      7,
    );
  });

  it('refuses an answer that is no index or letter, naming the field', () => {
    expect(matchesShape({ ...row, answer: 'four' }, 'mmlu')).toBe(false);
    expect(errorOf(() => rowToSample({ ...row, answer: 'four' }, 'mmlu')).message).toBe(
      'row does not fit MMLU: "answer" must be a zero-based index or a letter A-Z, not "four"',
    );
    expect(() => rowToSample({ ...row, choices: [1, 2] }, 'mmlu')).toThrow(
      '"choices" must be an array of strings',
    );
  });
});

describe('ARC', () => {
  const row = {
    id: 'Mercury_7175875',
    question:
      'An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect of this increase in rotation?',
    choices: {
      text: [
        'Planetary density will decrease.',
        'Planetary years will become longer.',
        'Planetary days will become shorter.',
        'Planetary gravity will become stronger.',
      ],
      label: ['A', 'B', 'C', 'D'],
    },
    answerKey: 'C',
  };

  it('matches the answer key against the labels', () => {
    const detection = detectShape([row, row]);
    expect(detection).toMatchObject({ shape: 'arc', matched: 2, total: 2, confidence: 1 });
    const sample = roundTrip(row, 'arc') as MultipleChoiceSample;
    expect(sample.answer_index).toBe(2);
    expect(sample.id).toBe(row.id);
    expect(sampleToRow({ ...sample, answer_index: 0 }, row, 'arc').answerKey).toBe('A');
  });

  it('handles numeric labels', () => {
    const numbered = {
      ...row,
      choices: { ...row.choices, label: ['1', '2', '3', '4'] },
      answerKey: '4',
    };
    const sample = roundTrip(numbered, 'arc') as MultipleChoiceSample;
    expect(sample.answer_index).toBe(3);
    expect(sampleToRow({ ...sample, answer_index: 1 }, numbered, 'arc').answerKey).toBe('2');
    // a fifth choice continues the numbering
    const more = sampleToRow(
      { ...sample, choices: [...sample.choices, 'None of these.'], answer_index: 4 },
      numbered,
      'arc',
    );
    expect(more.choices).toEqual({
      text: [...sample.choices, 'None of these.'],
      label: ['1', '2', '3', '4', '5'],
    });
    expect(more.answerKey).toBe('5');
  });

  it('is told apart from CommonsenseQA by question_concept', () => {
    const csqa = { ...row, question_concept: 'planet' };
    expect(detectShape([csqa])?.candidates).toEqual([
      { shape: 'commonsenseqa', matched: 1 },
      { shape: 'arc', matched: 1 },
    ]);
    expect(detectShape([row, csqa, row])?.shape).toBe('arc');
  });

  it('refuses an answer key that is not a label', () => {
    expect(matchesShape({ ...row, answerKey: 'E' }, 'arc')).toBe(true);
    expect(() => rowToSample({ ...row, answerKey: 'E' }, 'arc')).toThrow(
      'row does not fit ARC: "answerKey" "E" is not one of the labels A, B, C, D',
    );
    expect(() => rowToSample({ ...row, choices: { text: ['a'] } }, 'arc')).toThrow(
      '"choices.label" is missing',
    );
  });
});

describe('Alpaca', () => {
  const row = {
    instruction: 'Summarise the text.',
    input: 'Cats sleep a lot.',
    output: 'Cats nap.',
  };

  it('joins instruction and input into the user turn and reads the whole conversation', () => {
    const sample = roundTrip(row, 'alpaca');
    expect(sample).toEqual({
      task_type: 'conversation',
      messages: [
        { role: 'user', content: 'Summarise the text.\n\nCats sleep a lot.' },
        { role: 'assistant', content: 'Cats nap.' },
      ],
      turns: 'all',
    });
    const bare = { instruction: 'Say hi.', input: '', output: 'Hi.' };
    expect((roundTrip(bare, 'alpaca') as ConversationSample).messages[0]?.content).toBe('Say hi.');
    const noInput = { instruction: 'Say hi.', output: 'Hi.', category: 'open_qa' };
    expect(roundTrip(noInput, 'alpaca')).toMatchObject({ category: 'open_qa' });
  });

  function withPrompt(sample: Sample, prompt: string, output?: string): ConversationSample {
    const conv = sample as ConversationSample;
    return {
      ...conv,
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: output ?? conv.messages[1]?.content ?? '' },
      ],
    };
  }

  it('writes a fix back to the part of the user turn it touched', () => {
    const sample = rowToSample(row, 'alpaca');
    const back = (prompt: string, original: Row = row): Row =>
      sampleToRow(withPrompt(sample, prompt, 'Cats nap a lot.'), original, 'alpaca');
    // the instruction changed, the input is still at the end
    expect(back('Summarize the text.\n\nCats sleep a lot.')).toEqual({
      instruction: 'Summarize the text.',
      input: 'Cats sleep a lot.',
      output: 'Cats nap a lot.',
    });
    // the input changed, the instruction is still at the start
    expect(back('Summarise the text.\n\nCats sleep a great deal.')).toMatchObject({
      instruction: 'Summarise the text.',
      input: 'Cats sleep a great deal.',
    });
    // both changed: split at the blank line
    expect(back('Summarize this text.\n\nCats sleep much.')).toMatchObject({
      instruction: 'Summarize this text.',
      input: 'Cats sleep much.',
    });
    // no blank line left: the whole turn is the instruction, the input is emptied
    expect(back('Summarize: cats sleep.')).toMatchObject({
      instruction: 'Summarize: cats sleep.',
      input: '',
    });
    // a row without input never gains one
    const bare = { instruction: 'Say hi.', input: '', output: 'Hi.' };
    expect(back('Say hi.\n\nPlease.', bare)).toEqual({
      instruction: 'Say hi.\n\nPlease.',
      input: '',
      output: 'Cats nap a lot.',
    });
  });

  it('keeps blank lines inside an instruction when splitting a rewrite', () => {
    const twoPart = {
      instruction: 'Read this.\n\nThen answer.',
      input: 'Text one.',
      output: 'OK.',
    };
    const sample = roundTrip(twoPart, 'alpaca');
    expect(
      sampleToRow(withPrompt(sample, 'Read it.\n\nThen reply.\n\nText 1.'), twoPart, 'alpaca'),
    ).toEqual({
      instruction: 'Read it.\n\nThen reply.',
      input: 'Text 1.',
      output: 'OK.',
    });
  });

  it('drops a "No input" placeholder the fix removed', () => {
    const placeholder = { instruction: 'Name a colour.', input: 'No input.', output: 'Blue.' };
    const sample = roundTrip(placeholder, 'alpaca');
    expect(sampleToRow(withPrompt(sample, 'Name a colour.'), placeholder, 'alpaca')).toEqual({
      instruction: 'Name a colour.',
      input: '',
      output: 'Blue.',
    });
  });

  it('refuses a transcript an Alpaca row cannot hold', () => {
    const sample = rowToSample(row, 'alpaca') as ConversationSample;
    const longer = {
      ...sample,
      messages: [...sample.messages, { role: 'user', content: 'More?' }],
    };
    expect(() => sampleToRow(longer, row, 'alpaca')).toThrow('not 3 messages');
    expect(() => sampleToRow({ task_type: 'text', text: 'x' }, row, 'alpaca')).toThrow(
      'a text sample cannot be written back as conversation',
    );
  });
});

describe('ShareGPT', () => {
  const row = {
    id: 'abc',
    conversations: [
      { from: 'system', value: 'Be brief.' },
      { from: 'human', value: 'Hi' },
      { from: 'gpt', value: 'Hello!', weight: 1 },
      { from: 'bing', value: 'Odd turn' },
    ],
  };

  it('maps human/gpt/system and keeps unknown speakers as the role', () => {
    expect(detectShape([row])?.shape).toBe('sharegpt');
    const sample = roundTrip(row, 'sharegpt') as ConversationSample;
    expect(sample.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'bing']);
    expect(sample.id).toBe('abc');
    expect(sample.turns).toBe('all');
  });

  it('writes back in the original vocabulary, keeping turn keys', () => {
    const sample = rowToSample(row, 'sharegpt') as ConversationSample;
    const messages = sample.messages.map((m) =>
      m.role === 'bing' ? { role: 'assistant', content: 'Fixed' } : m,
    );
    messages.push({ role: 'user', content: 'Thanks' });
    const back = sampleToRow({ ...sample, messages }, row, 'sharegpt');
    expect(back).toEqual({
      id: 'abc',
      conversations: [
        { from: 'system', value: 'Be brief.' },
        { from: 'human', value: 'Hi' },
        { from: 'gpt', value: 'Hello!', weight: 1 },
        { from: 'gpt', value: 'Fixed' },
        { from: 'human', value: 'Thanks' },
      ],
    });
    // variants that already say user/assistant keep saying it
    const variant = {
      conversations: [
        { from: 'user', value: 'Q' },
        { from: 'assistant', value: 'A' },
      ],
    };
    roundTrip(variant, 'sharegpt');
  });

  it('names the bad turn', () => {
    expect(() => rowToSample({ conversations: [{ from: 'human' }] }, 'sharegpt')).toThrow(
      '"conversations[0].value" must be a string, but it is missing',
    );
    expect(() => rowToSample({ conversations: [] }, 'sharegpt')).toThrow(
      '"conversations" is empty',
    );
  });
});

describe('OpenAI chat', () => {
  const row = {
    messages: [
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe' },
          { type: 'image_url', image_url: { url: 'x.png' } },
          { type: 'text', text: 'this.' },
        ],
      },
      { role: 'assistant', content: 'A cat.', weight: 1 },
      { role: 'assistant', content: null, tool_calls: [] },
    ],
    metadata: { source: 'hand' },
  };

  it('reads string, text-part and null contents', () => {
    expect(detectShape([row])?.shape).toBe('openai_chat');
    const sample = roundTrip(row, 'openai_chat') as ConversationSample;
    expect(sample.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Describe\nthis.' },
      { role: 'assistant', content: 'A cat.' },
      { role: 'assistant', content: '' },
    ]);
    expect(sample.metadata).toEqual({ source: 'hand' });
  });

  it('writes a fixed text into the first text part and keeps other parts and keys', () => {
    const sample = rowToSample(row, 'openai_chat') as ConversationSample;
    const messages = sample.messages.map((m, i) =>
      i === 1
        ? { ...m, content: 'Describe this image.' }
        : i === 2
          ? { ...m, content: 'A black cat.' }
          : m,
    );
    const back = sampleToRow({ ...sample, messages }, row, 'openai_chat');
    expect(back.messages).toEqual([
      row.messages[0],
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe this image.' },
          { type: 'image_url', image_url: { url: 'x.png' } },
        ],
      },
      { role: 'assistant', content: 'A black cat.', weight: 1 },
      row.messages[3],
    ]);
    expect(back.metadata).toBe(row.metadata);
  });

  it('names a bad message', () => {
    expect(() => rowToSample({ messages: [{ role: 'user', content: 5 }] }, 'openai_chat')).toThrow(
      '"messages[0].content" must be a string or an array of parts, not a number',
    );
  });
});

describe('plain text', () => {
  it('maps text and keeps the other keys', () => {
    const row = { url: 'https://example.com', text: 'Hello world.', meta: { lang: 'en' } };
    expect(detectShape([row])?.shape).toBe('text');
    const sample = roundTrip(row, 'text');
    expect(sample).toEqual({
      task_type: 'text',
      text: 'Hello world.',
      url: row.url,
      meta: row.meta,
    });
    expect(sampleToRow({ ...sample, text: 'Hello, world.' }, row, 'text')).toEqual({
      ...row,
      text: 'Hello, world.',
    });
  });
});

describe('sample', () => {
  const row = {
    id: 7,
    task_type: 'multiple_choice',
    context: 'The sky is',
    choices: ['blue', 'green'],
    answer_index: 0,
    audit: { passed: true },
  };

  it('takes rows that are samples already, without the result blocks', () => {
    expect(detectShape([row, { task_type: 'text', text: 'x' }])?.shape).toBe('sample');
    const sample = rowToSample(row, 'sample');
    expect(sample).toEqual({
      task_type: 'multiple_choice',
      context: 'The sky is',
      choices: ['blue', 'green'],
      answer_index: 0,
      id: 7,
    });
    // mapped back: the result block the row had stays where it was
    expect(JSON.stringify(sampleToRow(sample, row, 'sample'))).toBe(JSON.stringify(row));
    const back = sampleToRow(
      { ...sample, choices: ['blue', 'grey'], style: 'continuation' },
      row,
      'sample',
    );
    expect(back).toEqual({ ...row, choices: ['blue', 'grey'], style: 'continuation' });
    expect(Object.keys(back).at(-1)).toBe('style');
  });

  it('validates the row with the Sample schema', () => {
    const broken = { task_type: 'multiple_choice', context: 'x', choices: ['a'] };
    expect(matchesShape(broken, 'sample')).toBe(true);
    const error = errorOf(() => rowToSample(broken, 'sample'));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^invalid sample at \/answer_index/);
    expect(matchesShape({ task_type: 'essay', text: 'x' }, 'sample')).toBe(false);
    expect(() => rowToSample({ task_type: 'essay' }, 'sample')).toThrow(
      '"task_type" must be one of text, multiple_choice, question_answer, conversation, not "essay"',
    );
  });
});

describe('passthrough', () => {
  it('carries unmapped keys but never ones that collide with the sample or the result blocks', () => {
    const row = {
      question: 'Q?',
      answer: 'A.',
      source: 'x',
      task_type: 'bogus',
      audit: { passed: false },
      fix: null,
      reaudit: null,
    };
    expect(detectShape([row])?.shape).toBe('gsm8k');
    const sample = rowToSample(row, 'gsm8k');
    expect(sample).toEqual({
      task_type: 'question_answer',
      question: 'Q?',
      answer: 'A.',
      source: 'x',
    });
    expect(JSON.stringify(sampleToRow(sample, row, 'gsm8k'))).toBe(JSON.stringify(row));
  });

  it('keeps a __proto__ key as plain data', () => {
    const row = JSON.parse('{"text":"t","__proto__":{"polluted":true}}') as Row;
    const sample = rowToSample(row, 'text');
    expect(Object.getPrototypeOf(sample)).toBe(Object.prototype);
    const back = sampleToRow(sample, row, 'text');
    expect(JSON.stringify(back)).toBe(JSON.stringify(row));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });
});

describe('rows that fit nothing', () => {
  it('detect as null', () => {
    expect(detectShape([])).toBeNull();
    expect(detectShape([{ foo: 1 }, { bar: 2 }])).toBeNull();
    expect(detectShape([1, 'two', null, ['x']])).toBeNull();
    // half is not most
    expect(detectShape([{ text: 'a' }, { foo: 1 }])).toBeNull();
    expect(detectShape([{ text: 'a' }, { text: 'b' }, { foo: 1 }])).toMatchObject({
      shape: 'text',
      matched: 2,
      total: 3,
    });
  });

  it('give a clear error', () => {
    expect(() => rowToSample([1, 2], 'text')).toThrow(
      'row does not fit plain text: the row must be an object, not an array',
    );
    expect(() => rowToSample({ question: 'Q' }, 'gsm8k')).toThrow(
      'row does not fit GSM8K: "answer" is missing',
    );
    expect(() => rowToSample({ question: 'Q', answer: 3 }, 'gsm8k')).toThrow(
      '"answer" must be a string, not a number',
    );
    expect(() => rowToSample({ prompt: { text: 'hi' } }, 'oasst')).toThrow(
      '"prompt.role" must be a string, but it is missing',
    );
    expect(() =>
      rowToSample({ question: 'Q', mc1_targets: { a: 1, b: 1 } }, 'truthfulqa_mc'),
    ).toThrow('"mc1_targets" must mark exactly one answer with 1, not 2');
    expect(() => rowToSample({ text: 'x' }, 'nope' as ShapeId)).toThrow(
      'unknown dataset shape "nope"',
    );
  });
});

describe('sampleToRow and passthrough keys', () => {
  const row = { question: 'What is 2 + 2?', answer: 'It is 4.\n#### 4', id: 'q1', meta: { n: 1 } };
  const sample = rowToSample(row, 'gsm8k');

  it('writes back a passthrough value the sample changed or added, keeping the key order', () => {
    const edited = { ...sample, id: 'q1-fixed', note: 'checked' } as Sample;
    expect(sampleToRow(edited, row, 'gsm8k')).toEqual({ ...row, id: 'q1-fixed', note: 'checked' });
    expect(Object.keys(sampleToRow(edited, row, 'gsm8k'))).toEqual([
      'question',
      'answer',
      'id',
      'meta',
      'note',
    ]);
  });

  it('leaves the row as it was where the sample keeps its passthrough keys, or lacks one', () => {
    expect(JSON.stringify(sampleToRow(sample, row, 'gsm8k'))).toBe(JSON.stringify(row));
    const without = Object.fromEntries(
      Object.entries(sample).filter(([key]) => key !== 'id'),
    ) as Sample;
    expect(sampleToRow(without, row, 'gsm8k')).toEqual(row);
  });
});

describe('sampleToRow and passthrough values as JSON writes them', () => {
  it('takes -0 and 0, and equal objects in another key order, for the same value', () => {
    const row = { question: 'Q?', answer: 'A.\n#### 1', zero: -0, meta: { a: 1, b: [1, 2] } };
    const sample = { ...rowToSample(row, 'gsm8k'), zero: 0, meta: { b: [1, 2], a: 1 } } as Sample;
    expect(sampleToRow(sample, row, 'gsm8k')).toEqual(row);
    expect(Object.is(sampleToRow(sample, row, 'gsm8k').zero, -0)).toBe(true);
  });
});
