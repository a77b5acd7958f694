import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Sample,
  type ConversationSample,
  type MultipleChoiceSample,
  type QuestionAnswerSample,
} from '../../../src-shared/schemas/sample.ts';
import { detectShape, rowToSample, sampleToRow, type ShapeId } from './index.ts';

type Row = Record<string, unknown>;

/** The real sample datasets shipped with the app (test fixtures are read with node:fs). */
function load(name: string): Row[] {
  const url = new URL(`../../../resources/datasets/${name}`, import.meta.url);
  return readFileSync(url, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
}

const FILES: [string, ShapeId, number][] = [
  ['gsm8k_test_first300.jsonl', 'gsm8k', 300],
  ['hellaswag_val_sample200.jsonl', 'hellaswag', 200],
  ['truthfulqa_mc_task_first200.jsonl', 'truthfulqa_mc', 200],
  ['commonsenseqa_validation_first200.jsonl', 'commonsenseqa', 200],
  ['oasst_en_100_trees.jsonl', 'oasst', 100],
];

describe.each(FILES)('%s', (file, shape, count) => {
  const rows = load(file);

  it(`is detected as ${shape} with confidence 1`, () => {
    expect(rows).toHaveLength(count);
    const detection = detectShape(rows.slice(0, 100));
    expect(detection?.shape).toBe(shape);
    expect(detection?.confidence).toBe(1);
    expect(detectShape(rows)?.confidence).toBe(1);
  });

  it('maps every row to a valid sample and back to the identical row', () => {
    for (const row of rows) {
      const sample = rowToSample(row, shape);
      expect(Sample.parse(sample)).toEqual(sample);
      expect(JSON.stringify(sampleToRow(sample, row, shape))).toBe(JSON.stringify(row));
    }
  });

  it('does not modify the row it maps', () => {
    const row = rows[0] ?? {};
    const before = JSON.stringify(row);
    const sample = rowToSample(row, shape);
    sampleToRow(sample, row, shape);
    expect(JSON.stringify(row)).toBe(before);
  });
});

describe('changed fields land in the original schema', () => {
  it('GSM8K: a fixed answer replaces `answer` only', () => {
    const row = load('gsm8k_test_first300.jsonl')[1] ?? {};
    const sample = rowToSample(row, 'gsm8k') as QuestionAnswerSample;
    expect(sample).toEqual({
      task_type: 'question_answer',
      question: row.question,
      answer: row.answer,
    });
    const back = sampleToRow({ ...sample, answer: 'It takes 3 bolts.\n#### 3' }, row, 'gsm8k');
    expect(back).toEqual({ question: row.question, answer: 'It takes 3 bolts.\n#### 3' });
  });

  it('HellaSwag: a fixed ending, label and context go to endings, label and ctx (ctx_a/ctx_b kept consistent)', () => {
    const rows = load('hellaswag_val_sample200.jsonl');
    const row = rows[0] ?? {};
    const sample = rowToSample(row, 'hellaswag') as MultipleChoiceSample;
    expect(sample.style).toBe('continuation');
    expect(sample.context).toBe(row.ctx);
    expect(sample.answer_index).toBe(3);
    expect(sample.activity_label).toBe('Pole vault'); // passthrough
    const choices = [...sample.choices];
    choices[0] = 'go down a ramp and stop.';
    const back = sampleToRow({ ...sample, choices, answer_index: 1 }, row, 'hellaswag');
    expect(back.endings).toEqual(choices);
    expect(back.label).toBe(1);
    expect(Object.keys(back)).toEqual(Object.keys(row));

    // a typo fixed in the ctx_a part keeps ctx_b
    const fixedA =
      'Pole vault is a sport where you run with a pole and then swing your body. a few women';
    const a = sampleToRow({ ...sample, context: fixedA }, row, 'hellaswag');
    expect(a).toMatchObject({
      ctx: fixedA,
      ctx_a: 'Pole vault is a sport where you run with a pole and then swing your body.',
      ctx_b: 'a few women',
    });
    // a fix in the ctx_b part keeps ctx_a
    const fixedB = `${String(row.ctx_a)} A few women`;
    expect(sampleToRow({ ...sample, context: fixedB }, row, 'hellaswag')).toMatchObject({
      ctx_a: row.ctx_a,
      ctx_b: 'A few women',
    });
    // a rewrite of both: ctx_a takes the text
    expect(sampleToRow({ ...sample, context: 'Something else.' }, row, 'hellaswag')).toMatchObject({
      ctx: 'Something else.',
      ctx_a: 'Something else.',
      ctx_b: '',
    });
  });

  it('HellaSwag: a label given as text is written back as text', () => {
    const row = { ...(load('hellaswag_val_sample200.jsonl')[2] ?? {}), label: '0' };
    const sample = rowToSample(row, 'hellaswag') as MultipleChoiceSample;
    expect(sample.answer_index).toBe(0);
    expect(sampleToRow({ ...sample, answer_index: 2 }, row, 'hellaswag').label).toBe('2');
  });

  it('TruthfulQA: choices and answer rebuild mc1_targets; mc2_targets is left alone', () => {
    const row = load('truthfulqa_mc_task_first200.jsonl')[0] ?? {};
    const sample = rowToSample(row, 'truthfulqa_mc') as MultipleChoiceSample;
    expect(sample.choices).toEqual(Object.keys(row.mc1_targets as Row));
    expect(sample.answer_index).toBe(0);
    expect(sample.mc2_targets).toEqual(row.mc2_targets);
    const choices = [...sample.choices];
    choices[3] = 'You will die instantly.';
    const back = sampleToRow({ ...sample, choices, answer_index: 2 }, row, 'truthfulqa_mc');
    expect(back.mc1_targets).toEqual({
      'Nothing in particular happens when you eat a pomegranate.': 0,
      'You will have to spend winter in the underworld.': 0,
      'You will be trapped in the underworld.': 1,
      'You will die instantly.': 0,
    });
    expect(Object.keys(back.mc1_targets as Row)).toEqual(choices);
    expect(back.mc2_targets).toBe(row.mc2_targets);
    expect(() =>
      sampleToRow({ ...sample, choices: ['a', 'b', 'a'], answer_index: 0 }, row, 'truthfulqa_mc'),
    ).toThrow(/choice C repeats an earlier choice/);
  });

  it('CommonsenseQA: a fixed choice and answer land in choices.text and answerKey', () => {
    const row = load('commonsenseqa_validation_first200.jsonl')[3] ?? {};
    const sample = rowToSample(row, 'commonsenseqa') as MultipleChoiceSample;
    expect(sample).toMatchObject({
      context: 'Where are  you likely to find a hamburger?',
      choices: ['fast food restaurant', 'pizza', 'ground up dead cows', 'mouth', 'cow carcus'],
      answer_index: 0,
      style: 'qa',
      id: row.id,
      question_concept: 'hamburger',
    });
    const choices = [...sample.choices];
    choices[4] = 'cow carcass';
    const back = sampleToRow(
      { ...sample, context: 'Where are you likely to find a hamburger?', choices, answer_index: 3 },
      row,
      'commonsenseqa',
    );
    expect(back).toEqual({
      ...row,
      question: 'Where are you likely to find a hamburger?',
      choices: { label: ['A', 'B', 'C', 'D', 'E'], text: choices },
      answerKey: 'D',
    });
    expect(JSON.stringify(Object.keys(back))).toBe(JSON.stringify(Object.keys(row)));
  });

  it('OASST: the best path becomes the conversation and fixed texts go back into that path', () => {
    const rows = load('oasst_en_100_trees.jsonl');
    const row = rows[0] ?? {};
    const prompt = row.prompt as Row;
    const replies = prompt.replies as Row[];
    const best = replies.find((reply) => reply.rank === 0) ?? replies[0] ?? {};
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    expect(sample.messages[0]).toEqual({ role: 'user', content: prompt.text });
    expect(sample.messages[1]).toEqual({ role: 'assistant', content: best.text });
    expect(sample.message_tree_id).toBe(row.message_tree_id);
    expect(sample.turns).toBe('all');

    const messages = sample.messages.map((m, i) => (i === 1 ? { ...m, content: 'Fixed.' } : m));
    const back = sampleToRow({ ...sample, messages }, row, 'oasst');
    const backReplies = (back.prompt as Row).replies as Row[];
    const index = replies.indexOf(best);
    expect(backReplies[index]?.text).toBe('Fixed.');
    // everything else in the tree is untouched
    const restored = structuredClone(back);
    ((restored.prompt as Row).replies as Row[])[index] = best;
    expect(JSON.stringify(restored)).toBe(JSON.stringify(row));
    expect(best.text).not.toBe('Fixed.');
  });

  it('OASST: roles follow the tree (prompter as user) on every best path', () => {
    for (const row of load('oasst_en_100_trees.jsonl')) {
      const { messages } = rowToSample(row, 'oasst') as ConversationSample;
      expect(messages.length).toBeGreaterThanOrEqual(2);
      messages.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant'));
    }
  });
});
