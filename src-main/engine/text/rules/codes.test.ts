import { describe, expect, it } from 'vitest';
import { TEXT_RULE_CODES } from './codes.ts';
import { TEXT_RULES } from './index.ts';

describe('TEXT_RULE_CODES', () => {
  it('names every text rule, in the order the rules run', () => {
    expect(TEXT_RULE_CODES).toEqual(TEXT_RULES.map((rule) => rule.code));
  });
});
