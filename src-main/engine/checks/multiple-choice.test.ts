import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mangledNumbers, repairMangledNumbers } from './choice-numbers.ts';
import { normalizeChoice } from './multiple-choice.ts';
import {
  endsMidClause,
  isQuestionWithFullStop,
  looksLikeQuestion,
  looksLikeQuestionStem,
} from './stem-form.ts';
import type { MultipleChoiceSample } from '../../../src-shared/schemas/sample.ts';
import { commonsenseQa, hellaswag, truthfulQa } from '../testing/real-data.ts';
import { audit, fix } from '../testing/run.ts';

describe('multiple_choice on real datasets', () => {
  it("finds CommonsenseQA's five items with duplicate choices, and no others", async () => {
    const items = commonsenseQa();
    const { blocks } = await audit(items);
    const duplicates = items.filter((_, i) =>
      blocks[i]?.checks.choices?.issues.some((issue) => issue.code === 'duplicate_choice'),
    );
    expect(duplicates).toHaveLength(5);
    // PROVENANCE.md names one: "indestructible" at both A and D, gold D.
    expect(duplicates.some((d) => String(d.id).startsWith('e5ad2184'))).toBe(true);
  });

  it('drops a duplicate choice and keeps the label on the same answer text', async () => {
    const items = commonsenseQa();
    const item = items.find((s) => String(s.id).startsWith('e5ad2184'));
    expect(item).toBeDefined();
    const { outcomes } = await fix([item!]);
    const out = outcomes[0]!.output as MultipleChoiceSample;
    expect(out.choices.length).toBe(item!.choices.length - 1);
    expect(out.choices[out.answer_index]).toBe(item!.choices[item!.answer_index]);
    expect(outcomes[0]!.after?.checks.choices?.passed).toBe(true);
    expect(outcomes[0]!.fix?.changes.map((c) => c.op)).toContain('remove');
  });

  it('rates clean benchmark items as passing (false-positive rates)', async () => {
    for (const [items, maxFailed] of [
      [hellaswag(), 2],
      [truthfulQa(), 0],
    ] as const) {
      const { blocks } = await audit(items);
      expect(blocks.filter((b) => !b.passed).length).toBeLessThanOrEqual(maxFailed);
      expect(blocks.every((b) => b.label_correct === null)).toBe(true);
    }
  });

  const base: MultipleChoiceSample = {
    task_type: 'multiple_choice',
    context: 'What is 6 * 7?',
    choices: ['42', '48', '36', '49'],
    answer_index: 0,
    style: 'qa',
  };

  it('verifies a computable label and repairs a wrong one', async () => {
    const { blocks } = await audit([base, { ...base, answer_index: 2 }]);
    expect(blocks.map((b) => b.label_correct)).toEqual([true, false]);
    const { outcomes } = await fix([{ ...base, answer_index: 2 }]);
    expect(outcomes[0]?.output).toMatchObject({ answer_index: 0 });
    expect(outcomes[0]?.fix?.changes).toEqual([
      { op: 'replace', path: '/answer_index', value: 0, old: 2, reason: 'label_correct' },
    ]);
  });

  it('judges decimals, fractions and mixed numbers by value, and leaves the label alone', async () => {
    const item = (context: string, choices: string[], answerIndex: number) => ({
      ...base,
      context,
      choices,
      answer_index: answerIndex,
    });
    const right = [
      item('What is 7 / 2?', ['3', '3.5', '4', '2'], 1),
      item('What is 1/2+1/4?', ['1/2', '3/4', '1', '2/3'], 1),
      item('What is 15/4?', ['3 1/2', '3 3/4', '4', '3'], 1),
      item('What is 10 / 3?', ['3', '3.33', '4', '3.5'], 1),
      item('What is 1/2+1/4?', ['0.75', '3/4', '1', '2'], 1), // two spellings of the value
    ];
    const { blocks } = await audit(right);
    expect(blocks.map((b) => b.label_correct)).toEqual([true, true, true, true, true]);
    const { outcomes } = await fix(right);
    for (const outcome of outcomes) expect(outcome.fix?.changes ?? []).toEqual([]);

    // An integer choice is not the rounding of 7/2: the label on "4" is wrong, and moves to "3.5".
    const { outcomes: moved } = await fix([item('What is 7 / 2?', ['3', '3.5', '4', '2'], 2)]);
    expect(moved[0]?.output).toMatchObject({ answer_index: 1 });
  });

  it('leaves the label undecided when a choice is not a plain number or fraction', async () => {
    const { blocks } = await audit([
      { ...base, context: 'What is 30 + 4?', choices: ['34 years', '30 years', '4 years'] },
      { ...base, context: 'What is 7 / 2?', choices: ['3.5', 'none of these'] },
      { ...base, context: 'What is 10 / 3?', choices: ['3.3', '3.33', '3'], answer_index: 0 },
      { ...base, context: 'What is 3x + 2?', choices: ['5', '6', '8'], answer_index: 1 },
    ]);
    expect(blocks.map((b) => b.label_correct)).toEqual([null, null, null, null]);
    const { outcomes } = await fix([
      { ...base, context: 'What is 30 + 4?', choices: ['34 years', '30 years'], answer_index: 0 },
    ]);
    expect(outcomes[0]?.output).toMatchObject({ answer_index: 0 });
  });

  it('reports an out-of-range index, empty choices and a leaked answer', async () => {
    const { blocks } = await audit([
      { ...base, answer_index: 4 },
      { ...base, choices: ['42', ' ', '36'] },
      {
        ...base,
        context:
          'The capital of France is Paris, the city of light. Which city is the capital of France?',
        choices: ['Paris, the city of light', 'Lyon', 'Nice'],
      },
    ]);
    expect(blocks[0]?.checks.answer_index?.passed).toBe(false);
    expect(blocks[1]?.checks.choices?.issues[0]?.code).toBe('empty_choice');
    expect(blocks[2]?.checks.answer_leak?.passed).toBe(false);
  });

  it('reports style against form', async () => {
    const { blocks } = await audit([
      {
        ...base,
        context: 'A man walks into a bar and',
        style: 'qa',
        choices: ['sits', 'runs'],
        answer_index: 0,
      },
      {
        ...base,
        context: 'Why is the sky blue?',
        style: 'continuation',
        choices: ['a', 'b'],
        answer_index: 0,
      },
    ]);
    expect(blocks.map((b) => b.checks.style?.issues[0]?.code)).toEqual([
      'style_mismatch',
      'style_mismatch',
    ]);
  });
});

describe('stem form', () => {
  it('reads cut questions as no question, whatever word they start with', () => {
    for (const stem of [
      'What is the capital of',
      'What is the capital',
      'In what Spanish speaking North American',
      'If you are prone to postpone work what will you',
      'Nicknamed the Pilgrims, this football team based in Boston plays in a',
      'A man is sitting on a roof. He',
    ]) {
      expect(looksLikeQuestion(stem), stem).toBe(false);
    }
    expect(endsMidClause('What is the capital of')).toBe(true);
    expect(endsMidClause('What is the capital of France?')).toBe(false);
  });

  it('reads statements as no question, relative clauses and lost question marks included', () => {
    for (const stem of [
      'He takes the dog to the groomer, which costs $100.',
      'Alex weighs 2 pounds less than 4 times what Grace weighs.',
      'According to its nutritional info, a bag of chips has 250 calories per serving.',
      'Julia was preparing for a dinner party at her house, where she intended to serve stew.',
      'A girl is mowing the lawn. when the girl',
      'What is the capital of France.',
      'Refrigerator',
    ]) {
      expect(looksLikeQuestion(stem), stem).toBe(false);
    }
    expect(isQuestionWithFullStop('What is the capital of France.')).toBe(true);
    expect(isQuestionWithFullStop('What UFO report was proved? (the list: 1. first, 2.')).toBe(
      false,
    );
  });

  it('reads the real ways of asking as questions', () => {
    for (const stem of [
      'What is the capital of France?',
      'Which of these is "right"?"',
      'Sailors drive many different types of boats, what type of boat involves their namesake.',
      'When you fail to finish something, you failed at doing what to it',
      "Nicknamed the 'Pilgrims', this team plays in Boston. Name the team.",
      'The longest side of a right triangle is called the ____.',
      'Which statement is true:',
      'If you have leftover cake, where would you put it',
      'Statement 1 | Every integral domain has a field of quotients. Statement 2 | A polynomial of degree n has at most n zeros.',
      'Compute the sum of 3 and 4.',
    ]) {
      expect(looksLikeQuestion(stem), stem).toBe(true);
    }
  });

  it('finds a continuation stem that asks, and leaves how-to titles and open stems alone', () => {
    expect(looksLikeQuestionStem('Why is the sky blue?')).toBe(true);
    expect(looksLikeQuestionStem('A man talks to the camera. What does he do next?')).toBe(true);
    expect(looksLikeQuestionStem('Which of the following best completes the passage')).toBe(true);
    expect(
      looksLikeQuestionStem('[header] How to clean an iron [title] Make a paste. [step] Mix'),
    ).toBe(false);
    expect(looksLikeQuestionStem('When they are done fighting, the women')).toBe(false);
  });

  it('passes the real stems of CommonsenseQA, TruthfulQA and HellaSwag', async () => {
    const { blocks } = await audit([...commonsenseQa(), ...truthfulQa(), ...hellaswag()]);
    expect(blocks.filter((b) => b.checks.style?.issues.length)).toHaveLength(0);
  });
});

describe('near-duplicate choices', () => {
  it('ignores case, spacing and punctuation, keeps what makes words and numbers differ', () => {
    const same = [
      ['Ice-cream', 'ice  cream.'],
      ['New York', '"new york"'],
      ['All of the above', 'all of these'],
      ['None of the above.', 'NONE OF THE ABOVE OPTIONS'],
      ['3,000', '3000'],
    ];
    for (const [a, b] of same) expect(normalizeChoice(a!), `${a} ~ ${b}`).toBe(normalizeChoice(b!));
    const different = [
      ['3.5', '35'],
      ['-5', '5'],
      ['1/2', '12'],
      ['3 1/2', '31/2'],
      ["it's", 'its'],
      ["we'll", 'well'],
      ['a part', 'apart'],
      ['x > 5', 'x < 5'],
      ['?', '!'],
      ['All of the above', 'None of the above'],
    ];
    for (const [a, b] of different) {
      expect(normalizeChoice(a!), `${a} vs ${b}`).not.toBe(normalizeChoice(b!));
    }
  });

  it('reads ASCII choices in one pass exactly as the regex path reads them', () => {
    // A trailing no-break space sends a choice down the NFKC and regex path and is then
    // trimmed away: both paths must give the same key.
    const unit = fc.constantFrom(
      ..."aZ09 \t\n!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~xX1,2'-.".split(''),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (choice) => {
        expect(normalizeChoice(choice)).toBe(normalizeChoice(`${choice}\u00a0`));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds a twin that differs only in form, with all/none of the above, and drops it', async () => {
    const item: MultipleChoiceSample = {
      task_type: 'multiple_choice',
      context: 'Which of these are fruits?',
      choices: ['apple', 'Banana', 'banana.', 'All of the above', 'all of these'],
      answer_index: 3,
      style: 'qa',
    };
    const { blocks } = await audit([item]);
    expect(blocks[0]?.checks.choices?.issues.map((i) => [i.code, i.path])).toEqual([
      ['duplicate_choice', '/choices/2'],
      ['duplicate_choice', '/choices/4'],
    ]);
    const { outcomes } = await fix([item]);
    expect(outcomes[0]?.output).toMatchObject({
      choices: ['apple', 'Banana', 'All of the above'],
      answer_index: 2,
    });
  });

  it('is a property: a near twin made of any choice is found', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{2,8}( [a-z]{2,8}){0,3}$/),
        fc.constantFrom(
          (c: string) => c.toUpperCase(),
          (c: string) => ` ${c}. `,
          (c: string) => c.replaceAll(' ', '  '),
          (c: string) => `"${c}"!`,
          (c: string) => c.replaceAll(' ', '-'),
        ),
        (choice, vary) => normalizeChoice(vary(choice)) === normalizeChoice(choice),
      ),
    );
  });
});

describe('mangled numbers in options', () => {
  const item = (
    choices: string[],
    context = 'How far away is the star?',
  ): MultipleChoiceSample => ({
    task_type: 'multiple_choice',
    context,
    choices,
    answer_index: 0,
    style: 'qa',
  });

  it('finds lost exponents and repairs them to the caret form', async () => {
    const sample = item([
      '9.3 x 1013 meters',
      '9.3 x 10^12 meters',
      '3 × 108 m/s',
      '1.6 × 10-19 C',
    ]);
    const found = sample.choices.map((_, i) => mangledNumbers(i, sample.choices, sample.context));
    expect(found.map((f) => f.map((m) => m.repaired))).toEqual([
      ['9.3 x 10^13'],
      [],
      ['3 × 10^8'],
      ['1.6 × 10^-19'],
    ]);
    expect(repairMangledNumbers(0, sample.choices, sample.context)).toBe('9.3 x 10^13 meters');
    const { blocks } = await audit([sample]);
    expect(blocks[0]?.checks.choices?.passed).toBe(false);
    expect(blocks[0]?.checks.choices?.issues.map((i) => i.code)).toEqual([
      'lost_exponent',
      'lost_exponent',
      'lost_exponent',
    ]);
  });

  it('leaves real products and arithmetic alone', () => {
    for (const [choices, context] of [
      [['2 x 100', '200', '300'], 'What is the area?'],
      [['3 x 105', '315', '305'], 'What is 3 x 105?'],
      [['5 x 10000 meters', '4 km'], 'How far?'],
      [['19.3 x 1013', '20'], 'Which product?'],
    ] as const) {
      const choicesList = [...choices];
      const found = choicesList.flatMap((_, i) => mangledNumbers(i, choicesList, context));
      expect(found, choicesList.join(' | ')).toEqual([]);
    }
  });

  it('finds spreadsheet dates in numeric option sets and repairs them to the range', async () => {
    const sample = item(['1-4', '14-May', '15-20', '21-30'], 'How many players are on the team?');
    expect(mangledNumbers(1, sample.choices, sample.context)[0]).toMatchObject({
      kind: 'spreadsheet_date',
      repaired: '5-14',
    });
    expect(repairMangledNumbers(1, ['1-4', 'Jan-3', '5-9'], 'Range?')).toBe('1-3');
    expect(repairMangledNumbers(1, ['9-5', '3-Jan', '2-1'], 'Range?')).toBe('3-1');
    expect(repairMangledNumbers(1, ['2', 'May-14', '7'], 'Score?')).toBe('5-14');
    const { blocks } = await audit([sample]);
    expect(blocks[0]?.checks.choices?.issues[0]?.code).toBe('spreadsheet_date');
  });

  it('leaves real dates alone', async () => {
    const history = [
      item(['May 14, 1948', '14-May', 'June 5, 1967'], 'When was Israel founded?'),
      item(['14-May', '15-May', '3-Jan'], 'On which date is the holiday?'),
      item(['14-May', '5', '6'], 'What day of the month was it?'),
      item(['14-May-1948', '1949', '1950'], 'In which year?'),
    ];
    for (const sample of history) {
      const found = sample.choices.flatMap((_, i) =>
        mangledNumbers(i, sample.choices, sample.context),
      );
      expect(found, sample.choices.join(' | ')).toEqual([]);
    }
    const { blocks } = await audit(history);
    expect(blocks.every((b) => b.checks.choices?.passed)).toBe(true);
  });
});
