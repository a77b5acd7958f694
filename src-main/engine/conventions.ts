import { TEXT_RULE_CODES } from './text/rules/codes.ts';

/**
 * `conventions`: free text in which a dataset's owner says what is intended.
 * The builtin engine honours it by switching checks and issue codes off:
 *
 * a sentence that holds a word of permission (ok, fine, allowed, expected,
 * intended, intentional, acceptable, normal, deliberate, "by design", "part of
 * the data", ignore, keep, skip, leave, "not a defect", "don't flag"), not
 * turned around by a negation just before it ("not fine", "do not ignore"),
 * turns off every issue code or check name it writes (`whitespace`, `pii_email`, `answer_leak`, `safety`, also
 * with spaces: `repeated lines`) and every topic below that it names
 * ("e-mail addresses are fine" turns off `pii_email`).
 *
 * The vocabulary is documented in the README; an upstream model receives
 * the text verbatim instead.
 */

export interface Conventions {
  text: string;
  /** Issue codes and check names switched off. */
  off: ReadonlySet<string>;
}

/** Codes owned by the structured checks (not text rules). */
export const STRUCTURED_CODES = [
  'answer_index_out_of_range',
  'too_few_choices',
  'empty_choice',
  'duplicate_choice',
  'style_mismatch',
  'answer_leak',
  'label_incorrect',
  'annotation_wrong',
  'equation_wrong',
  'visible_result_mismatch',
  'final_answer_missing',
  'final_answer_not_numeric',
  'answer_unsupported',
  'answer_incorrect',
  'empty_field',
  'invalid_role',
  'system_not_first',
  'empty_turn',
  'consecutive_roles',
  'ends_with_user',
  'no_dialogue',
] as const;

export const CHECK_NAMES = [
  'fluency',
  'coherence',
  'formatting',
  'safety',
  'encoding',
  'answer_index',
  'choices',
  'style',
  'answer_leak',
  'label_correct',
  'completeness',
  'arithmetic',
  'final_answer',
  'answer_correct',
  'roles',
  'empty_turns',
  'alternation',
] as const;

const TOPICS: readonly [RegExp, readonly string[]][] = [
  [/\b(html|markup|tags?|entities)\b/, ['markup_debris']],
  [/\bwiki ?how\b|\[(header|step|title|substeps)\]/, ['wiki_markup']],
  [/\b(white ?space|double spaces?|spacing|trailing spaces?|indentation)\b/, ['whitespace']],
  [/\b(invisible|zero[- ]width)\b/, ['invisible_chars']],
  [/\be-?mails?( addresses)?\b/, ['pii_email']],
  [/\bphones?( numbers?)?\b/, ['pii_phone']],
  [/\b(credit |payment )?cards?( numbers?)?\b/, ['pii_card']],
  [/\b(pii|personal (data|information)|contact details)\b/, ['pii_email', 'pii_phone', 'pii_card']],
  [/\b(secrets?|api keys?|credentials?|tokens?)\b/, ['secret']],
  [/\b(profan\w*|swear\w*|obscen\w*|curse words?|explicit language|vulgar\w*)\b/, ['profanity']],
  [
    /\b(repeti\w*|repeated|duplicate lines?)\b/,
    ['repeated_lines', 'repeated_words', 'repeated_ngrams', 'repeated_sentences'],
  ],
  [/\b(placeholders?|n\/a|no ?input|empty inputs?)\b/, ['placeholder']],
  [/\b(refusals?|refuses?|declines?)\b/, ['refusal']],
  [/\b(boilerplate|navigation|cookie (notices?|banners?))\b/, ['boilerplate']],
  [
    /\b(echo\w*|restat\w*|answers? (repeats?|copies) the (question|instruction|prompt))\b/,
    ['restates_prompt'],
  ],
  [/\b(scientific notation|exponents?)\b/, ['lost_exponent']],
  [/\b(dates? in (choices|options)|spreadsheet dates?)\b/, ['spreadsheet_date']],
  [/\b(truncat\w*|cut off|incomplete)\b/, ['truncated']],
  [/\b(duplicate (choices|options|answers|endings))\b/, ['duplicate_choice']],
  [/\b(empty (choices|options|endings))\b/, ['empty_choice']],
  [/\b(stems?|contexts?) (are|is) not questions?\b|\bstyle\b/, ['style_mismatch']],
  [
    /\banswers? (appears?|leaks?|is repeated|occurs?) in the (question|stem|context)\b/,
    ['answer_leak'],
  ],
  [/\b(no|without) (a )?(final answer|####)|\bfinal answer marker\b/, ['final_answer_missing']],
  [/\b(ends?|ending) with (a |the )?user\b|\bunanswered\b/, ['ends_with_user']],
  [/\b(consecutive|repeated) (turns|roles|messages)\b/, ['consecutive_roles']],
  [/\bsymbols\b|\bnot natural language\b/, ['not_natural_language']],
];

const PERMISSION =
  /\b(ok|okay|fine|allowed|expected|intended|intentional|acceptable|normal|deliberate\w*|on purpose|by design|part of the (data|dataset|format)|ignore|keep|skip|leave|not (a )?defects?|(do not|don'?t) (flag|fix|report|touch|change))\b/g;

/**
 * A word that turns the permission after it around ("are not fine", "do not
 * ignore", "never keep"): such a sentence asks for the check, so it switches
 * nothing off (it did, and "Do not ignore e-mail addresses." let them through).
 */
const NEGATION = /^(not|never|no|nor|cannot|neither|\w+n[’']t)$/;
/** Words before a permission looked at for a negation ("are not really fine"). */
const NEGATION_REACH = 3;
/** A clause after one of these stands apart: "E-mails are fine, but phones are not." */
const CLAUSE = /\b(?:but|however|whereas|although|though)\b/;

/** Whether the clause grants a permission that no negation just before it turns around. */
function permits(clause: string): boolean {
  for (const match of clause.matchAll(PERMISSION)) {
    const before = clause
      .slice(0, match.index)
      .split(/[^a-z’'_]+/) // an issue code is one word ("no_dialogue is fine" holds no "no")
      .filter(Boolean);
    if (!before.slice(-NEGATION_REACH).some((word) => NEGATION.test(word))) return true;
  }
  return false;
}

const KNOWN = [...TEXT_RULE_CODES, ...STRUCTURED_CODES, ...CHECK_NAMES];

export function parseConventions(text: string | undefined): Conventions {
  const source = (text ?? '').toLowerCase();
  const off = new Set<string>();
  if (!source.trim()) return { text: text ?? '', off };
  for (const sentence of source.split(/[.;\n!?]+/).flatMap((part) => part.split(CLAUSE))) {
    if (!permits(sentence)) continue;
    for (const code of KNOWN) {
      const spaced = code.replaceAll('_', '[ _-]');
      if (new RegExp(`(^|[^a-z_])${spaced}($|[^a-z_])`).test(sentence)) off.add(code);
    }
    for (const [topic, codes] of TOPICS) if (topic.test(sentence)) codes.forEach((c) => off.add(c));
  }
  return { text: text ?? '', off };
}

export const NO_CONVENTIONS: Conventions = { text: '', off: new Set() };
