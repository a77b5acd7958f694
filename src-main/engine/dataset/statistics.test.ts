import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { labelLanguages } from './languages-count.ts';
import {
  LANGUAGE_CHARS,
  Lengths,
  sampleLanguageText,
  StatisticsAccumulator,
} from './statistics.ts';

const conversation = (turns: number): Sample => ({
  task_type: 'conversation',
  messages: Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Turn ${i} of the talk.`,
  })),
});
const text = (length: number): Sample => ({ task_type: 'text', text: 'x'.repeat(length) });

/** The value at rank ceil(q * n) of the sorted values: what a median and a 90th percentile say. */
const rankQuantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] as number;
};

describe('length statistics', () => {
  it('gives 63 conversations of 2 turns and one of 4 a median of 2 turns', async () => {
    const stats = new StatisticsAccumulator();
    for (let i = 0; i < 63; i++) stats.add(conversation(2));
    stats.add(conversation(4));
    const { statistics } = await stats.finish();
    expect(statistics.lengths['turns per conversation']).toMatchObject({ p50: 2, p90: 2, max: 4 });
  });

  it('reads medians and 90th percentiles of short lengths exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1023), { minLength: 1, maxLength: 300 }), (lengths) => {
        const tally = new Lengths();
        for (const length of lengths) tally.add(length);
        const field = tally.toJSON();
        expect(field.p50).toBe(rankQuantile(lengths, 0.5));
        expect(field.p90).toBe(rankQuantile(lengths, 0.9));
      }),
    );
  });

  it('keeps long lengths within their bin and within the values seen', async () => {
    const stats = new StatisticsAccumulator();
    const lengths = [1500, 1600, 1700, 3000, 5000];
    for (const length of lengths) stats.add(text(length));
    const field = Object.values((await stats.finish()).statistics.lengths)[0]!;
    expect(field.p50).toBeGreaterThanOrEqual(1024);
    expect(field.p50).toBeLessThanOrEqual(2047);
    expect(field.p90).toBeLessThanOrEqual(5000);
  });
});

describe('the text a sample is identified on', () => {
  const pun: Sample = {
    task_type: 'conversation',
    messages: [
      { role: 'system', content: 'You are a witty assistant.' },
      { role: 'user', content: 'Invent a random pun.' },
      { role: 'assistant', content: 'I tried to catch some fog yesterday, but I mist.' },
    ],
  };
  const litres: Sample = {
    task_type: 'question_answer',
    question: 'Convert 3 litres to millilitres',
    answer: 'Three litres are 3,000 millilitres, since a litre holds one thousand of them.',
  };

  it('reads the prompt first, then the rest in order, a line apart', () => {
    expect(sampleLanguageText(pun)).toBe(
      'Invent a random pun.\nYou are a witty assistant.\nI tried to catch some fog yesterday, but I mist.',
    );
    expect(sampleLanguageText(litres)).toBe(`${litres.question}\n${litres.answer}`);
    expect(
      sampleLanguageText({
        task_type: 'multiple_choice',
        context: 'Pick one.',
        choices: ['a', '', 'c'],
        answer_index: 0,
      }),
    ).toBe('Pick one.\na\nc');
    expect(sampleLanguageText({ task_type: 'conversation', messages: [] })).toBeUndefined();
  });

  it('reads the rest only while the text is short, and at most LANGUAGE_CHARS', () => {
    const talk = (first: string): Sample => ({
      task_type: 'conversation',
      messages: [
        { role: 'user', content: first },
        ...Array.from({ length: 400 }, (_, i) => ({
          role: i % 2 === 0 ? ('assistant' as const) : ('user' as const),
          content: `Turn ${i} of a long talk.`,
        })),
      ],
    });
    const short = sampleLanguageText(talk('Hi.')) ?? '';
    // Turns are added until a couple of hundred characters are read, not through all 400.
    expect(short.startsWith('Hi.\nTurn 0 of a long talk.\nTurn 1 of')).toBe(true);
    expect(short.length).toBeGreaterThan(150);
    expect(short.length).toBeLessThan(300);
    const long = 'A prompt long enough by itself. '.repeat(40);
    expect(sampleLanguageText(talk(long))).toBe(long.slice(0, LANGUAGE_CHARS));
  });

  it('identifies a five-word English prompt as English with its answer, not alone', async () => {
    // eld, reliably by its own measure, calls these prompts alone Romanian and Tagalog.
    const alone = await labelLanguages(['Invent a random pun.', litres.question]);
    expect(alone).not.toContain('en');
    const whole = await labelLanguages([pun, litres].map((s) => sampleLanguageText(s) ?? ''));
    expect(whole).toEqual(['en', 'en']);
  });
});
