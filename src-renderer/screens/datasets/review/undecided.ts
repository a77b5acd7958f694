/**
 * Why a check is undecided, in words a reviewer reads at a glance. `label_correct` and
 * `answer_correct` are undecided when nobody could verify the label or the answer: the builtin
 * engine verifies one only when it computes it itself (a pure arithmetic question) or when a
 * worked solution contradicts its own final line, so every row of a word-problem set such as
 * GSM8K reads undecided. That is not a fault of the rows, and the review must not make a pile
 * of them look like one.
 */

/** The checks whose undecided verdict means "not verified", not "something is wrong". */
const UNVERIFIED_CHECKS: ReadonlySet<string> = new Set(['label_correct', 'answer_correct']);

export interface UndecidedWhy {
  /** A few words, for the undecided line itself. */
  short: string;
  /** The full reason, for the line opened and for tooltips. */
  long: string;
}

export const NOT_VERIFIABLE: UndecidedWhy = {
  short: 'not checkable without a model',
  long:
    'Nobody could verify the label or the answer: the builtin engine verifies one only when it ' +
    'computes it itself (a pure arithmetic question such as "What is 12 * 7?") or when a worked ' +
    'solution contradicts its own final line; a word problem is left undecided, not guessed. ' +
    'An upstream model (Settings) or a person can verify it. The row is not at fault.',
};

/** Why the named undecided checks are undecided, when every one of them is a label check. */
export function undecidedWhy(checks: readonly string[]): UndecidedWhy | null {
  if (checks.length === 0 || !checks.every((check) => UNVERIFIED_CHECKS.has(check))) return null;
  return NOT_VERIFIABLE;
}
