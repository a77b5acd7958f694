import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agrees, evaluate, MAX_NESTING, parseNumberOrFraction } from './arithmetic.ts';
import { computeArithmeticQuestion } from './checks/arithmetic-question.ts';

describe('evaluate', () => {
  it('binds a power tighter than a sign', () => {
    expect(evaluate('-3^2')).toBe(-9);
    expect(evaluate('(-3)^2')).toBe(9);
    expect(evaluate('2^-1')).toBe(0.5);
    expect(evaluate('2^3^2')).toBe(512);
    expect(evaluate('-2**2')).toBe(-4);
    expect(evaluate('10 - -3^2')).toBe(19);
  });

  it('reads x as a times sign only between numbers', () => {
    expect(evaluate('3 x 4')).toBe(12);
    expect(evaluate('3X4')).toBe(12);
    expect(evaluate('2 × (3 + 1)')).toBe(8);
    expect(evaluate('3x + 2')).toBeNull();
    expect(evaluate('x + 2')).toBeNull();
    expect(evaluate('0x10 + 1')).toBeNull(); // hexadecimal, not 0 times 10
  });

  it('gives up beyond its nesting limit instead of overflowing the stack', () => {
    const nested = (n: number): string => '('.repeat(n) + '1+1' + ')'.repeat(n);
    expect(evaluate(nested(MAX_NESTING - 1))).toBe(2);
    for (const n of [MAX_NESTING + 1, 5_000, 100_000]) {
      expect(() => evaluate(nested(n))).not.toThrow();
      expect(evaluate(nested(n))).toBeNull();
    }
    expect(evaluate('-'.repeat(50_000) + '1')).toBeNull();
    expect(evaluate(Array.from({ length: 50_000 }, () => '2').join('^'))).toBeNull();
    // a long flat sum is not nesting
    expect(evaluate(Array.from({ length: 50_000 }, () => '1').join('+'))).toBe(50_000);
  });

  it('computes random expressions as their trees say (property)', () => {
    interface Expr {
      text: string;
      value: number;
    }
    const leaf = fc.integer({ min: 0, max: 999 }).map((n): Expr => ({ text: String(n), value: n }));
    const apply = {
      '+': (a: number, b: number) => a + b,
      '-': (a: number, b: number) => a - b,
      '*': (a: number, b: number) => a * b,
    };
    const { e: expression } = fc.letrec<{ e: Expr }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([a, op, b]): Expr => ({
          text: `(${a.text} ${op} ${b.text})`,
          value: apply[op](a.value, b.value),
        })),
        tie('e').map((a): Expr => ({ text: `-(${a.text})`, value: -a.value })),
      ),
    }));
    fc.assert(
      fc.property(expression, ({ text, value }) => {
        const got = evaluate(text);
        return got !== null && Math.abs(got - value) <= 1e-9 * Math.max(1, Math.abs(value));
      }),
    );
  });
});

describe('agrees', () => {
  it('asks a stated value without decimals to be exact', () => {
    expect(agrees(3.5, 4, '4')).toBe(false);
    expect(agrees(10 / 3, 3, '3')).toBe(false);
    expect(agrees(0.1 + 0.2, 0.3, '0.3')).toBe(true); // float noise is not a disagreement
    expect(agrees(12, 12, '12')).toBe(true);
  });

  it('judges a stated value with d decimals at d decimals', () => {
    expect(agrees(10 / 3, 3.33, '3.33')).toBe(true);
    expect(agrees(10 / 3, 3.3, '3.3')).toBe(true);
    expect(agrees(10 / 3, 3.34, '3.34')).toBe(false);
    expect(agrees(3.5, 3.5, '3.50')).toBe(true);
    expect(agrees(-10 / 3, -3.33, '-3.33')).toBe(true);
    expect(agrees(2 / 3, 0.67, '0.67')).toBe(true);
  });

  it('accepts exactly the roundings of the computed value (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 4 }),
        (value, decimals) => {
          // at a tie (x.xx5) both neighbours are roundings
          fc.pre(Math.abs(((Math.abs(value) * 10 ** decimals) % 1) - 0.5) > 1e-6);
          const text = value.toFixed(decimals);
          expect(agrees(value, Number(text), text)).toBe(true);
          const off = (Number(text) + 10 ** -decimals).toFixed(decimals);
          expect(agrees(value, Number(off), off)).toBe(false);
        },
      ),
    );
  });
});

describe('parseNumberOrFraction', () => {
  it('reads plain numbers, fractions and mixed numbers, and nothing else', () => {
    expect(parseNumberOrFraction('3/4')?.value).toBe(0.75);
    expect(parseNumberOrFraction('3 3/4')?.value).toBe(3.75);
    expect(parseNumberOrFraction('-1/2')?.value).toBe(-0.5);
    expect(parseNumberOrFraction('$1,250')?.value).toBe(1250);
    expect(parseNumberOrFraction(' 3.5 ')?.value).toBe(3.5);
    for (const text of ['34 years', '60%', 'four', '1/0', '3/4 cup', '']) {
      expect(parseNumberOrFraction(text)).toBeNull();
    }
  });
});

describe('computeArithmeticQuestion', () => {
  it('computes pure arithmetic, with x as a times sign between numbers', () => {
    expect(computeArithmeticQuestion('What is 12 * 7?')).toBe(84);
    expect(computeArithmeticQuestion('What is 3 x 4?')).toBe(12);
    expect(computeArithmeticQuestion('What is -3^2?')).toBe(-9);
  });

  it('leaves questions with variables undecided', () => {
    expect(computeArithmeticQuestion('What is 3x + 2?')).toBeNull();
    expect(computeArithmeticQuestion('What is 2y + 1?')).toBeNull();
    expect(computeArithmeticQuestion('Solve x - 4 = 2.')).toBeNull();
  });
});
