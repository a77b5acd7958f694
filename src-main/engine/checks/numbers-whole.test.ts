import { describe, expect, it } from 'vitest';
import type { QuestionAnswerSample } from '../../../src-shared/schemas/sample.ts';
import { audit, fix } from '../testing/run.ts';
import {
  annotations,
  equationIsWrong,
  finalAnswer,
  plainEquations,
  readStatedNumber,
  visibleEcho,
} from './worked-solution.ts';

/**
 * Numbers read as the writer meant them wherever a worked solution is
 * checked: fractions, mixed numbers, thousands separators, money and dashes
 * used as minus signs; and no equation read out of a longer formula. The solutions are GSM8K test items (1,319 of them in
 * ../shared/benchmarks): the first two failed before on nothing but how a
 * number was read, the third holds a real typo that must still fail.
 */

const qa = (question: string, answer: string): QuestionAnswerSample => ({
  task_type: 'question_answer',
  question,
  answer,
});

/** GSM8K test item 319: a fraction after its annotation. */
const POLES = qa(
  'A new neighborhood is being built and requires 45 wires to connect the electric poles. The ' +
    'ratio of the number of electric poles to wires is 1:3. How many poles are needed?',
  'The total ratio representing the number of electric poles and wires is 1+3=<<1+3=4>>4\n' +
    "The fraction representing the number of wires required to connect the neighborhood's " +
    'electricity is <<3/4=3/4>>3/4\n' +
    'If 3/4 represents 45, the number of wires required for the connections, then the total ' +
    'fraction which is 4/4, representing the poles and wires needed, represents 4/4*45*4/3=60\n' +
    'Since the total number of wires and poles required is 60, and the number of electric wires ' +
    'to be used is 45, the number of poles required is 60-45=<<60-45=15>>15\n#### 15',
);

/** GSM8K test item 780: an en dash for a minus sign. */
const POINTS = qa(
  'Emma and Ava play a game. How many more points than Ava does Emma have?',
  'For jumping on enemies, Emma earns 8 * 10 = <<8*10=80>>80 fewer points than Ava.\n' +
    'For collecting berries, Emma earns 3 * 5 = <<3*5=15>>15 fewer points than Ava.\n' +
    'For finishing the level faster, Emma earns 4 * 30 = <<4*30=120>>120 more points than Ava.\n' +
    'Overall, Emma has 120 – 80 - 15 = <<120-80-15=25>>25 more points than Ava.\n#### 25',
);

/** GSM8K test item 1024: "$32 - $20 = $300" is a typo in the source. */
const SUZZANE = qa(
  'Suzzane has $32 and spends $20. How much money does she have left?',
  'Suzzane spends $20.\nSo, Suzzane has $32 - $20 = $300 left.\n#### 12',
);

const issueMessages = async (sample: QuestionAnswerSample): Promise<string[]> => {
  const { blocks } = await audit([sample]);
  return Object.values(blocks[0]?.checks ?? {}).flatMap((v) => v.issues.map((i) => i.message));
};

describe('numbers read whole in worked solutions', () => {
  it('reads <<3/4=3/4>>3/4 as three quarters, not as 3', async () => {
    const [fraction] = annotations('is <<3/4=3/4>>3/4\nIf').slice(0);
    expect(fraction?.visible?.text).toBe('3/4');
    expect(fraction && visibleEcho(fraction)).toBe('3/4');
    const { blocks } = await audit([POLES]);
    expect(blocks[0]?.checks.arithmetic?.passed).toBe(true);
    expect(await issueMessages(POLES)).not.toContainEqual(expect.stringMatching(/text after it/));
  });

  it('reads an en dash between numbers as a minus sign (120 – 80 - 15 = 25)', async () => {
    const { blocks } = await audit([POINTS]);
    expect(blocks[0]?.checks.arithmetic).toMatchObject({ passed: true, issues: [] });
  });

  it('reads no equation out of the operands of algebra (MATH solutions)', () => {
    for (const solution of [
      'We note that $g(2)=2^2+3=7$, so $f(g(2))=f(7)$.',
      'Completing the square gives us $(x +4)^2 + (y -3)^2 -25 = 0$.',
      'So $5 (1 + 2 + \\dots + 20) = 5 \\cdot 20 \\cdot 21/2 = 1050$.',
      '$3367/7=481$ and $481/7=68\\frac{5}{7}$ so $10101=3\\cdot7\\cdot481$.',
      'Then\n\\[18 + 25 = 24 + w,\\]so $w = 19.$',
      'We have $4 * 3 = 2(4)+3(3) = 8+9 = 17$ and $2 * 6 = 2^6 + 6^2 = 100$.',
      '$$\\frac{279}{99999} = 0.\\overline{00279},$$',
    ]) {
      expect(plainEquations(solution).filter(equationIsWrong), solution).toEqual([]);
    }
    expect(plainEquations('So 2 + 3 = 6 apples.').filter(equationIsWrong)).toHaveLength(1);
  });

  it('still catches "So, Suzzane has $32 - $20 = $300 left."', async () => {
    const { blocks } = await audit([SUZZANE]);
    expect(blocks[0]?.checks.arithmetic?.issues).toEqual([
      expect.objectContaining({ code: 'equation_wrong', message: '32 - 20 = 300: it is 12' }),
    ]);
  });

  it('still catches a wrong number after an annotation, fraction or not', async () => {
    for (const answer of ['So <<3/4=3/4>>3/5 of it.\n#### 3/5', 'So <<6/2=3>>4 cars.\n#### 4']) {
      const { blocks } = await audit([qa('How many?', answer)]);
      expect(blocks[0]?.checks.arithmetic?.issues.map((i) => i.code)).toEqual([
        'visible_result_mismatch',
      ]);
    }
  });

  it('takes the first number of a mixed reading when that is the result ("10 1/2-pound bags")', () => {
    const [a] = annotations('He buys <<5*2=10>>10 1/2-pound bags');
    expect(a?.visible?.text).toBe('10 1/2');
    expect(a && visibleEcho(a)).toBe('10');
    const [b] = annotations('It takes <<1+1/2=1 1/2>>1 1/2 hours');
    expect(b && visibleEcho(b)).toBe('1 1/2');
  });

  it('compares by value: 16.00 and 1,000 echo 16 and 1000', () => {
    const [cents] = annotations('<<8*2=16>>16.00 dollars');
    expect(cents && visibleEcho(cents)).toBe('16.00');
    const [thousand] = annotations('<<500*2=1000>>1,000 people');
    expect(thousand && visibleEcho(thousand)).toBe('1,000');
  });

  it('reads fractions, mixed numbers, separators and money as stated numbers', () => {
    expect(readStatedNumber('3/4')).toBe(0.75);
    expect(readStatedNumber('1 1/2')).toBe(1.5);
    expect(readStatedNumber('1,000')).toBe(1000);
    expect(readStatedNumber('$32')).toBe(32);
    expect(readStatedNumber('60%')).toBe(60);
    expect(finalAnswer('It is 3/4 of the cake.\n#### 3/4')?.value).toBe(0.75);
  });

  it('judges a final answer written as a fraction against the fractions of its solution', async () => {
    const right = qa('What part?', 'She ate 1/4, so 1 - 1/4 = <<1-1/4=3/4>>3/4 is left.\n#### 3/4');
    const wrong = qa('What part?', 'She ate 1/4, so 1 - 1/4 = <<1-1/4=3/4>>3/4 is left.\n#### 2/3');
    const { blocks } = await audit([right, wrong]);
    expect(blocks[0]?.passed).toBe(true);
    expect(blocks[1]?.checks.answer_correct?.issues.map((i) => i.code)).toEqual([
      'answer_unsupported',
    ]);
  });

  it('repairs the echo of a wrong fraction annotation and nothing after it', async () => {
    const sample = qa('What part?', 'Half of a half is <<1/2*1/2=1/2>>1/2 of the pie.\n#### 1/4');
    const { outcomes } = await fix([sample]);
    expect(outcomes[0]?.output).toMatchObject({
      answer: 'Half of a half is <<1/2*1/2=0.25>>0.25 of the pie.\n#### 1/4',
    });
  });
});
