import { describe, expect, it } from 'vitest';
import { gsm8k } from '../testing/real-data.ts';
import { audit, fix } from '../testing/run.ts';

const items = gsm8k();

describe('question_answer on GSM8K (300 real items)', () => {
  it('passes every item: arithmetic, final answer, completeness', async () => {
    const { blocks } = await audit(items);
    for (const block of blocks) {
      expect(block.checks.arithmetic?.passed).toBe(true);
      expect(block.checks.final_answer?.passed).toBe(true);
      expect(block.checks.completeness?.passed).toBe(true);
      // A consistent worked solution is not a verified answer.
      expect(block.answer_correct).toBeNull();
    }
    expect(blocks.filter((b) => !b.passed)).toHaveLength(0);
  });

  it('accepts thousands separators in final answers (#### 2,125)', async () => {
    const withSeparators = items.filter((s) => /#### \d{1,3},\d{3}/.test(s.answer));
    expect(withSeparators.length).toBe(4);
    const { blocks } = await audit(withSeparators);
    expect(blocks.every((b) => b.passed)).toBe(true);
  });

  it('fails every item whose annotation result is altered, and repairs it', async () => {
    const altered = items.slice(0, 60).map((s) => ({
      ...s,
      // <<16-3-4=9>>9 becomes <<16-3-4=10>>10: a wrong calculator result echoed in the text
      answer: s.answer.replace(/<<([^=<>]+)=(\d+)>>\2/, (_m, expr: string, result: string) => {
        const wrong = String(Number(result) + 1);
        return `<<${expr}=${wrong}>>${wrong}`;
      }),
    }));
    const changed = altered.filter((s, i) => s.answer !== items[i]?.answer);
    expect(changed.length).toBeGreaterThan(50);
    const { blocks } = await audit(changed);
    for (const block of blocks) {
      expect(block.checks.arithmetic?.passed).toBe(false);
      expect(block.checks.arithmetic?.issues[0]?.code).toBe('annotation_wrong');
    }
    const { outcomes } = await fix(changed);
    for (const [i, outcome] of outcomes.entries()) {
      const original = items.find((s) => s.question === changed[i]?.question);
      expect(outcome.after?.checks.arithmetic?.passed).toBe(true);
      expect(outcome.output).toMatchObject({ answer: original?.answer.replace(/  +/g, ' ') });
    }
  });

  it('fails a final answer its solution never reaches, and restores it from the last equation', async () => {
    const sample = items[0]!;
    const wrong = { ...sample, answer: sample.answer.replace('#### 18', '#### 81') };
    const { blocks } = await audit([wrong]);
    expect(blocks[0]?.answer_correct).toBe(false);
    expect(blocks[0]?.checks.answer_correct?.issues[0]?.code).toBe('answer_unsupported');
    const plain = {
      task_type: 'question_answer' as const,
      question: 'Tom has 54 stickers and gives away 37. How many are left?',
      answer: 'Tom has 54 - 37 = 17 stickers left.\n#### 71',
    };
    const { outcomes } = await fix([plain]);
    expect(outcomes[0]?.output).toMatchObject({
      answer: 'Tom has 54 - 37 = 17 stickers left.\n#### 17',
    });
    expect(outcomes[0]?.fix?.changes[0]?.reason).toBe('answer_correct');
  });

  it('fails altered final answers even where the new value is an intermediate result', async () => {
    // +1 and +7 on every item: the altered value must be what the last line concludes.
    const altered = items.flatMap((s) =>
      [1, 7].map((delta) => ({
        ...s,
        answer: s.answer.replace(/#### ([\d,]+)$/, (_m, n: string) => {
          return `#### ${Number(n.replace(/,/g, '')) + delta}`;
        }),
      })),
    );
    const { blocks } = await audit(altered);
    const caught = blocks.filter((b) => b.answer_correct === false).length;
    // 8.5 in the work must not support "#### 9" (GSM8K item 25), as rounding would have it.
    expect(blocks[2 * 25 + 1]?.answer_correct).toBe(false);
    // The few that slip through equal another number on the solution's last line.
    expect(caught / altered.length).toBeGreaterThan(0.98);
  });

  it('fails a wrong plain equation in prose', async () => {
    const sample = {
      task_type: 'question_answer' as const,
      question: 'How much?',
      answer: 'The boots cost 99 + 5 = $105.\n#### 105',
    };
    const { blocks } = await audit([sample]);
    expect(blocks[0]?.checks.arithmetic?.issues[0]?.code).toBe('equation_wrong');
  });

  it('computes answer_correct for a pure arithmetic question', async () => {
    const q = (answer: string) => ({
      task_type: 'question_answer' as const,
      question: 'What is 12 * 7?',
      answer,
    });
    const { blocks } = await audit([q('84'), q('#### 84'), q('85')]);
    expect(blocks.map((b) => b.answer_correct)).toEqual([true, true, false]);
  });
});
