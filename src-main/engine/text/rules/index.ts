import type { TextRule } from '../rule.ts';
import {
  brokenUnicodeRule,
  controlCharsRule,
  mojibakeRule,
  replacementCharRule,
} from './encoding.ts';
import { invisibleCharsRule, markupRule, whitespaceRule, wikiMarkupRule } from './formatting.ts';
import {
  emptyRule,
  repeatedLinesRule,
  repeatedNgramsRule,
  repeatedWordsRule,
  truncatedRule,
  wordSaladRule,
} from './repetition.ts';
import { placeholderRule, refusalRule } from './placeholders.ts';
import { backToBackRule, boilerplateRule } from './quality.ts';
import { cardRule, emailRule, phoneRule, profanityRule, secretRule } from './safety.ts';

/**
 * Every text rule, in the order their fixes are applied: encoding first (a
 * mojibake repair changes what the other rules see), then placeholders and
 * repeats, then markup, then whitespace last (the other repairs leave spaces
 * behind).
 */
export const TEXT_RULES: readonly TextRule[] = [
  mojibakeRule,
  controlCharsRule,
  brokenUnicodeRule,
  replacementCharRule,
  wordSaladRule,
  emptyRule,
  placeholderRule,
  refusalRule,
  backToBackRule,
  repeatedLinesRule,
  repeatedWordsRule,
  repeatedNgramsRule,
  truncatedRule,
  boilerplateRule,
  markupRule,
  wikiMarkupRule,
  invisibleCharsRule,
  emailRule,
  phoneRule,
  cardRule,
  secretRule,
  profanityRule,
  whitespaceRule,
];

export { TEXT_RULE_CODES } from './codes.ts';
