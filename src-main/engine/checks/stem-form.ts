import { isLetterCodePoint } from '../text/chars.ts';
/**
 * The form of a multiple-choice stem: a complete question (`qa`) or a stem to
 * be continued (`continuation`). Read from its shape, not its meaning:
 *
 * - a stem that ends with "?" (quotes and brackets after it aside), holds a
 *   blank ("___") or ends with ":" asks;
 * - a stem that ends mid-clause (on an article, a preposition, a conjunction,
 *   an auxiliary, a comma) does not, whatever word it starts with: "What is
 *   the capital of" is a cut question, not a question;
 * - a stem that starts as a question ("What is", "Is the", "How many") but has
 *   no "?" (no sentence end, or a full stop) was cut off or made a statement;
 * - MMLU's pairs of statements ("Statement 1 | ... Statement 2 | ...") ask;
 * - otherwise a stem without "?" asks when it is an instruction ("Name the
 *   team.", "Identify ...") or holds "what", "why" or "how" at the start of a
 *   clause ("Sailors drive many boats, what type of boat ...") or, without a
 *   full stop, a question word at its very end ("you failed at doing what to
 *   it"): CommonsenseQA and TruthfulQA write a few of their questions so. A
 *   statement with a relative clause ("..., which takes 20 minutes.", "less
 *   than what Grace weighs.") does not ask.
 */

/** Words a clause cannot end on: the stem was cut in the middle of one. */
const DANGLING = new Set(
  (
    'a an the of to in on at by for from with into onto about over under than as and or but nor ' +
    'that which who whose whom if because while although though since unless until whether so ' +
    'is are was were be been being am do does did has have had can could will would shall ' +
    'should may might must its their his her our your my this these those such very more most ' +
    'not no every each some any between among through during before after without within upon ' +
    'i you he she we they what which who whom whose when where why how'
  ).split(' '),
);

const INTERROGATIVE =
  /^(?:(?:in|on|at|for|from|to|by|with|of|during)\s+(?:what|which|whom|whose|where)\b|(?:what|which|who|whom|whose|why|where)\b|how\b(?!\s+to\b)|when\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b|(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|may|might|must|shall)\s+(?:the|a|an|it|he|she|they|we|you|i|there|this|that|these|those|most|all|any|some|people|someone)\b)/i;

const INSTRUCTION =
  /^(?:name|identify|select|choose|complete|fill|give|list|state|find|determine|pick|indicate|explain|describe|compute|calculate|evaluate|simplify|solve|estimate|classify|translate)\b/i;

/** MMLU's true/false pairs: "Statement 1 | ... Statement 2 | ...", judged by their choices. */
const STATEMENT_PAIR = /^Statement 1\s*\|/;

/**
 * A question word that opens a later clause and asks ("..., what type of boat
 * ...", "..., where would you put it"); which, who, where and when without an
 * auxiliary and its subject open relative clauses ("..., which takes 20
 * minutes").
 */
const CLAUSE_QUESTION_WORD =
  /^(?:what|why|how)\b|^(?:which|who|whom|where|when)\s+(?:would|could|should|can|do|does|did|will|might|may|must)\s+(?:you|i|we|they|he|she|it|one|a|an|the|people|someone|somebody)\b/i;

/** The stem without the quotes, brackets and spaces after its last word or mark. */
const tail = (stem: string): string => stem.replace(/[\s"'”’»)\]]+$/u, '');

const LAST_WORD = /([\p{L}']+)[^\p{L}]*$/u;

/** The code point ending at `end` (exclusive): its start. */
const pointStart = (text: string, end: number): number => {
  const low = text.charCodeAt(end - 1);
  const high = text.charCodeAt(end - 2);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1;
};

/**
 * What LAST_WORD captures (the run of letters and apostrophes around the last
 * letter), read backwards from the end: the regex tries every position of a
 * long stem. A stem without letters takes the regex.
 */
function lastWord(stem: string): string {
  let end = stem.length;
  let letterStart = -1;
  while (end > 0) {
    const start = pointStart(stem, end);
    if (isLetterCodePoint(stem.codePointAt(start) ?? 0)) {
      letterStart = start;
      break;
    }
    end = start;
  }
  if (letterStart < 0) return LAST_WORD.exec(stem)?.[1]?.toLowerCase() ?? '';
  let runEnd = end;
  while (stem.charCodeAt(runEnd) === 39) runEnd++;
  let runStart = letterStart;
  while (runStart > 0) {
    const start = pointStart(stem, runStart);
    const code = stem.codePointAt(start) ?? 0;
    if (code !== 39 && !isLetterCodePoint(code)) break;
    runStart = start;
  }
  return stem.slice(runStart, runEnd).toLowerCase();
}

/** The stem's last sentence (after the last ". ", "! " or "? "). */
function lastSentence(stem: string): string {
  const parts = stem.split(/(?<=[.!?])\s+(?=["'“‘(]?\p{Lu})/u);
  return parts.at(-1) ?? stem;
}

/** Ends mid-clause: on a word a clause cannot end with, or on a comma, semicolon or dash. */
export function endsMidClause(stem: string): boolean {
  const end = tail(stem.trim());
  if (end === '') return false;
  if (/[,;–—-]$/.test(end)) return true;
  if (/[.!?:…]$/.test(end)) return false;
  return DANGLING.has(lastWord(end));
}

export function looksLikeQuestion(context: string): boolean {
  const stem = context.trim();
  const end = tail(stem);
  if (/\?$/.test(end) || /_{2,}/.test(stem) || /:$/.test(end)) return true;
  if (STATEMENT_PAIR.test(stem)) return true;
  if (endsMidClause(stem)) return false;
  const sentence = lastSentence(stem.replace(/^\[[^\]]*\]\s*/, ''));
  const terminated = /[.!…]$/.test(end);
  // A question's opening without its question mark (none, or a full stop in its place): the
  // sentence was cut off, or the question was turned into a statement.
  if (!terminated && INTERROGATIVE.test(sentence)) return false;
  if (isQuestionWithFullStop(stem)) return false;
  if (INSTRUCTION.test(sentence) || INTERROGATIVE.test(sentence)) return true;
  // A question word opening a clause ("..., what type of boat ...") or in place at the end.
  const clauses = sentence.split(/[,;]\s*/);
  if (clauses.slice(1).some((c) => CLAUSE_QUESTION_WORD.test(c))) return true;
  // In place at the end of an unfinished sentence ("you failed at doing what to it"); a
  // statement uses the same words as relatives ("less than what Grace weighs.").
  if (terminated) return false;
  const words = sentence.split(/\s+/);
  if (/^(?:where|when|why|how)\W*$/i.test(words.at(-1) ?? '')) return true;
  return words.slice(-4).some((w) => /^(?:what|which|who|whom)\W*$/i.test(w));
}

/** A question worded as one whose "?" became a full stop ("What is the capital of France."). */
export function isQuestionWithFullStop(context: string): boolean {
  const stem = context.trim();
  return !stem.includes('?') && /\.$/.test(tail(stem)) && INTERROGATIVE.test(lastSentence(stem));
}

/** A `continuation` stem that asks instead of setting up an ending. */
export function looksLikeQuestionStem(context: string): boolean {
  const stem = context.trim();
  if (/\?$/.test(tail(stem))) return true;
  // One unfinished sentence that opens as a question ("Which of the following is true").
  const bare = stem.replace(/^\[[^\]]*\]\s*/, '');
  return (
    !/[.!?]\s/.test(bare) &&
    !/[.!]$/.test(tail(bare)) &&
    /^(?:what|which|who|whom|whose|why)\s+(?:is|are|was|were|do|does|did|of\s+the\s+following|can|could|would|should|will)\b/i.test(
      bare,
    )
  );
}
