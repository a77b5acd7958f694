import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { TextRuleCode } from './rules/codes.ts';

/** The four dimensions a text is rated on (the checks of a `text` sample). */
export type TextDimension = 'fluency' | 'coherence' | 'formatting' | 'safety';
export type Severity = 'error' | 'warning';

export interface Finding {
  count: number;
  /** A short excerpt that shows the problem (never the whole text). */
  example?: string;
  /** Where the first occurrence is, `[start, end)` in the string, when the rule knows it. */
  span?: [number, number];
  /** The severity of this finding when it differs from the rule's (a rule may warn or fail by degree). */
  severity?: Severity;
}

/**
 * Where a string sits, for the few rules whose judgment depends on it: "none"
 * is a fine answer and a placeholder where an input or a question should be.
 */
export interface RuleContext {
  /** Free text (a text sample, a conversation turn) rather than a short structured field. */
  freeText: boolean;
  /** The JSON Pointer of the field (`/answer`, `/choices/2`, `/messages/1/content`). */
  path: string;
  /** The role of a conversation turn, when the caller knows it. */
  role?: string | undefined;
  /**
   * The instruction the field answers (the user turn before an assistant
   * turn, the question of an answer): what it asks for makes some rules stand
   * down (`standDownNote` in instruction.ts). Rules do not read it; the checks
   * and the fix do, after detection, so findings stay a function of the text.
   */
  instruction?: string | undefined;
}

/** The span of `needle`'s first occurrence in `text` (from `from`), if it occurs. */
export function spanOf(text: string, needle: string, from = 0): [number, number] | undefined {
  if (needle === '') return undefined;
  const at = text.indexOf(needle, from);
  return at < 0 ? undefined : [at, at + needle.length];
}

/**
 * One signal over one string. `detect` must be cheap: it runs on every text
 * field of every sample, so rules pre-filter with a fast test before any
 * expensive work. `fix`, where present, returns the repaired string.
 */
export interface TextRule {
  code: TextRuleCode;
  dimension: TextDimension;
  severity: Severity;
  /** Only for free text (text samples and conversation turns), not for short fields like choices. */
  freeTextOnly?: boolean;
  describe: (finding: Finding) => string;
  detect: (text: string, context?: RuleContext) => Finding | null;
  fix?: (text: string, context?: RuleContext) => string;
}

export function toIssue(rule: TextRule, finding: Finding, path: string): Issue {
  const issue: Issue = {
    code: rule.code,
    message: rule.describe(finding),
    path,
    severity: finding.severity ?? rule.severity,
  };
  // A copy: findings are kept and reused (findings-memo.ts), issues travel on.
  if (finding.span) issue.span = [finding.span[0], finding.span[1]];
  return issue;
}

export const excerpt = (text: string, index: number, radius = 12): string => {
  const start = Math.max(0, index - radius);
  const end = Math.min(text.length, index + radius);
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
};

/** `1 phone number`, `2 phone numbers`; `many` where adding an s is wrong. */
export const plural = (count: number, word: string, many = `${word}s`): string =>
  `${count} ${count === 1 ? word : many}`;

/**
 * The words of a text, lower-cased (letters, digits, apostrophes). Several
 * rules read the same field one after another, so the last split is kept and
 * reused instead of splitting the text again per rule.
 */
let lastText: string | undefined;
let lastWords: string[] = [];
export function wordsOf(text: string): string[] {
  if (text !== lastText) {
    lastWords = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    lastText = text;
  }
  return lastWords;
}
