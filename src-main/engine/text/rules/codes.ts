/**
 * The text rules' codes, in the order of `TEXT_RULES` (index.ts; a test holds
 * the two equal). Apart from the rules themselves because reading
 * conventions needs only the codes, and the rules' modules (their word
 * lists, patterns and tables) cost a thread ~0.2 s to load: the main thread
 * of a file pass, which never runs a rule, loaded them for this list.
 */
export const TEXT_RULE_CODES = [
  'mojibake',
  'control_chars',
  'broken_unicode',
  'replacement_char',
  'not_natural_language',
  'empty',
  'placeholder',
  'refusal',
  'repeated_sentences',
  'repeated_lines',
  'repeated_words',
  'repeated_ngrams',
  'truncated',
  'boilerplate',
  'markup_debris',
  'wiki_markup',
  'invisible_chars',
  'pii_email',
  'pii_phone',
  'pii_card',
  'secret',
  'profanity',
  'whitespace',
] as const;

export type TextRuleCode = (typeof TEXT_RULE_CODES)[number];
