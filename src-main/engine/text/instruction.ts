/**
 * What an instruction asks its answer to hold. A reply is judged with the
 * instruction it answers (the user turn before an assistant turn, the question
 * of an answer): a template asked for holds placeholders ("Write a letter of
 * recommendation" answered "Dear [Recipient],"), a duplicate asked for repeats
 * ("Duplicate this essay"), markup asked for holds tags ("Write an HTML page"),
 * a list asked for repeats its lines' frame. There the rule that would flag
 * that stands down: its finding stays, as a warning whose message names the
 * instruction, and the fix leaves it as it is.
 */

export type Request = 'template' | 'repetition' | 'markup' | 'list' | 'recital';

/** A request: a verb of making, then within a few words what is to be made. */
const MAKE = String.raw`\b(?:write|draft|compose|create|generate|make|give|prepare|design|produce|provide|build|construct|code|format|convert|turn|rewrite|fill(?: in| out)?|outline|plan|suggest|come up with)\b[^.?!\n]{0,30}?`;
const asks = (nouns: string): RegExp => new RegExp(`${MAKE}\\b(?:${nouns})\\b`, 'i');

const ASKS: Record<Request, RegExp> = {
  template: asks(
    String.raw`templates?|form letters?|fill-in|placeholders?|letters?|e-?mails?(?! address)|memos?|invitations?|cover letters?|resumes?|résumés?|cvs?|contracts?|agreements?|forms?|mad ?libs?`,
  ),
  // "Duplicate this essay", "Repeat the sentence", "write it twice": asked of the reply itself;
  // a song or a poem asked for repeats its chorus or refrain.
  repetition: new RegExp(
    String.raw`(?:^|[.!?:;]\s+|\b(?:please|and|then|just|now)\s+)(?:duplicate|repeat|reproduce|copy|echo)\b|\b(?:write|say|print|type|repeat)\b[^.?!\n]{0,40}\b(?:twice|(?:\d+|two|three|four|five|ten) times)\b|` +
      String.raw`${MAKE}\b(?:songs?|lyrics|poems?|raps?|chants?|jingles?|anthems?|ballads?|nursery rhymes?|limericks?|villanelles?)\b`,
    'i',
  ),
  markup: new RegExp(
    `${MAKE}\\b(?:html|xhtml|xml|markup|tags?|web ?pages?|svg|jsx)\\b|\\b(?:in|using|as|with) (?:html|xml|markup|svg)\\b`,
    'i',
  ),
  // "Say \"I am ready\"", "Type exactly this sentence: ...": the reply is to be the prompt's words.
  recital: /^\s*(?:please\s+)?(?:say|type|recite)\b[^.?!\n]{0,30}?(?:["“‘:]|\bexactly\b)/i,
  list: new RegExp(
    `^\\s*(?:list|enumerate|name|outline|tabulate)\\b|${MAKE}\\b(?:lists?|bullet(?:ed)? points?|bullets|steps|schedules?|plans?|programs?|outlines?|tables?|truth tables?)\\b`,
    'i',
  ),
};

/** The rules each request makes stand down. */
const STANDS_DOWN: Record<string, readonly Request[]> = {
  placeholder: ['template'],
  repeated_sentences: ['repetition'],
  // A schedule or plan repeats its lines day by day ("Warm-up: 5-10 minutes").
  repeated_lines: ['repetition', 'list'],
  repeated_ngrams: ['repetition', 'list'],
  repeated_words: ['repetition'],
  markup_debris: ['markup'],
  // "Repeat after me: ...", "Echo: ...", "Say \"...\"": an answer that says the prompt again is the task.
  restates_prompt: ['repetition', 'recital'],
};

const WHAT: Record<Request, string> = {
  template: 'a template',
  repetition: 'the repetition',
  markup: 'markup',
  list: 'a list',
  recital: 'its words said back',
};

/**
 * The instruction proper: its first paragraph (an Alpaca prompt is the
 * instruction, a blank line, and the input it works on, whose words ask for
 * nothing), at most MAX_INSTRUCTION characters.
 */
export function instructionOf(prompt: string): string {
  const first = prompt.trim().split(/\n\s*\n/, 1)[0] ?? '';
  return first.slice(0, MAX_INSTRUCTION);
}

const MAX_INSTRUCTION = 400;
/** placeholders.ts reads a field this short as one whole-field placeholder. */
const WHOLE_FIELD = 40;

/**
 * Why `code` stands down on `text` under `instruction`, as the note its
 * message ends with; null if it does not. `example` is the finding's. A field
 * that is nothing but a placeholder ("N/A") is no template filled in: it
 * never stands down.
 */
export function standDownNote(
  code: string,
  instruction: string | undefined,
  text: string,
  example?: string,
): string | null {
  if (instruction === undefined || instruction === '') return null;
  const requests = STANDS_DOWN[code];
  if (!requests) return null;
  if (code === 'placeholder' && text.trim().length <= WHOLE_FIELD) return null;
  const asked = instructionOf(instruction);
  // A list repeats its frame across lines; a word said again and again ("very very very") is
  // a stutter whatever was asked (one-letter cells, "T T F", are a table's values).
  const stutter = example !== undefined && /^(\p{L}{2,})(?: \1)+$/iu.test(example.trim());
  const request = requests.find((r) => ASKS[r].test(asked) && !(r === 'list' && stutter));
  if (request === undefined) return null;
  const quoted = asked.length > 60 ? `${asked.slice(0, 60).trimEnd()}…` : asked;
  return `left as a warning: the instruction asks for ${WHAT[request]} ("${quoted}")`;
}
