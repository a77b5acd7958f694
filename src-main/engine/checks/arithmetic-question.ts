import { evaluate, withTimesSigns } from '../arithmetic.ts';

/**
 * Recognises questions that are pure arithmetic ("What is 12 * 7?",
 * "Compute 3 + 4.", "15 / 3 =", "3 x 4?") and computes their value; null for
 * anything else. This is where the builtin engine can verify a label on its own.
 */
const LEAD = /^(?:what\s+is|what's|compute|calculate|evaluate|find|solve|work out)\s*:?\s*/i;
const TAIL = /\s*(?:=\s*\??|\?|\.)\s*$/;

export function computeArithmeticQuestion(question: string): number | null {
  // "3 x 4" is a product; the "x" of "3x + 2" is a variable, and stays a letter.
  const core = withTimesSigns(question.trim().replace(LEAD, '').replace(TAIL, '').trim());
  if (!/\d/.test(core) || !/[-+*/×÷^−]/.test(core.replace(/^-/, ''))) return null;
  if (/\p{L}/u.test(core)) return null; // words or variables: not pure arithmetic
  return evaluate(core);
}
