import { describe, expect, it } from 'vitest';
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
