import { describe, expect, it } from 'vitest';
import { amountOf } from './ledger-amount.ts';

describe("a ledger entry's amount", () => {
  it('signs what changes the balance and brackets what only sets credit aside', () => {
    expect(amountOf('grant', '5.00')).toBe('+$5.00');
    expect(amountOf('charge', '0.01')).toBe('−$0.01');
    expect(amountOf('hold', '0.01')).toBe('($0.01 held)');
    expect(amountOf('release', '0.01')).toBe('($0.01 freed)');
  });
});
