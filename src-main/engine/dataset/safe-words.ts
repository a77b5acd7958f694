/**
 * The safe normalisation of duplicate detection: the words of a text with
 * what a copy changes without changing the question taken out (case, Unicode
 * compatibility forms, whitespace, prose punctuation: . , ; : ! ? quotes, a
 * hyphen between letters), and what tells two questions apart kept: numbers
 * read whole ("1,000" is 1000, "3.5" one number), each operator, bracket or
 * symbol as a word of its own ("sqrt ( 2 ) * sqrt ( 3 )"), LaTeX commands
 * ("\frac") and identifiers ("max_len").
 *
 * It also finds the names a text uses (capitalised words within a sentence:
 * "Alice", "Ulysses", "NINE"): a question about Alice is not one about Bob;
 * and, after a passage, the words of the sentences that ask: the same
 * passage asked about otherwise is another question.
 */

/** A number read whole: "1,000" (thousands separators), "3.5", ".5". */
const NUMBER = /[1-9]\d{0,2}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+/y;
/** What an ASCII character is to the scan, as bits (a table by char code). */
const SPACE = 1;
const DIGIT = 2;
/** Letters and the underscore: they make words. */
const WORD = 4;
/** Symbols that are content: operators, brackets, money, percent, code, the backslash. */
const KEPT = 8;
/** What ends a sentence or starts a new item: the next capital is no name ("(A) The", "| The"). */
const SENTENCE_END = 16;
/** Outside ASCII: asked of Unicode's classes. */
const OTHER = 128;
const ASCII = new Uint8Array(128);
for (let c = 0; c <= 32; c++) ASCII[c] = SPACE;
for (let c = 48; c <= 57; c++) ASCII[c] = DIGIT;
for (let c = 65; c <= 90; c++) ASCII[c] = WORD;
for (let c = 97; c <= 122; c++) ASCII[c] = WORD;
ASCII[95] = WORD;
for (const c of '+*/=<>^%$|()[]{}~&#@\\')
  ASCII[c.charCodeAt(0)] = (ASCII[c.charCodeAt(0)] as number) | KEPT;
for (const c of '.?!:;\n)|"')
  ASCII[c.charCodeAt(0)] = (ASCII[c.charCodeAt(0)] as number) | SENTENCE_END;
/** Outside ASCII, what is neither space, punctuation nor symbol is part of a word. */
const NOT_WORD_CHAR = /[\s\p{P}\p{S}]/u;
const LETTER = /\p{L}/u;
const SYMBOL = /\p{S}/u;
const NON_ASCII = /[^\p{ASCII}]/u;
/** A space outside ASCII (made once: a regex literal in the loop would be an object per character). */
const SPACE_CHAR = /\s/;
/** Letters with full stops, "U.S." or "e.g.": one word whether or not the stops are written. */
const ABBREVIATION = /^(?:\p{L}\.){2,}(?!\p{L})/u;
/** Words a capital begins after a lost full stop ("... old How many"): never names. */
const NEVER_NAMES = new Set(
  (
    'how what which when where who whom whose why if then the an and but or so in on at for to ' +
    'of by with from as is are was were be been this that these those there here it its he she ' +
    'they we you my your his her our their not no yes do does did can could would should will ' +
    'shall may might must let find each every all some after before while during since'
  ).split(' '),
);

export interface SafeWords {
  words: string[];
  /** Positions in `words` of names (only when asked for). */
  names: number[];
  /**
   * Positions in `words` of the sentences that end in "?" (only when names
   * are asked for, and only after a passage: see PASSAGE_WORDS).
   */
  asked: number[];
}

/**
 * Words outside the asking sentences that make a passage, at least, and at
 * least twice the asking words: a question read against a text, a table or a
 * story (SQuAD, RACE, BoolQ, a medical vignette). A row that is its question
 * alone ("What is the capitol of France?") keeps a changed word a copy.
 */
const PASSAGE_WORDS = 60;

/** Characters that end a sentence for the asking sentences: . ! ? ; : and a line break. */
const ENDS_SENTENCE = new Set([46, 33, 63, 59, 58, 10]);
const QUESTION_MARK = 63;

/** The words of a text as duplicates compare them. A text of punctuation alone is one word. */
export function wordsForDuplicates(text: string): string[] {
  return safeWords(text, false).words;
}

/** A text as duplicates compare it: its words joined by one space. */
export function normalizeForDuplicates(text: string): string {
  return wordsForDuplicates(text).join(' ');
}

/**
 * The words of a text, and with `findNames` the positions of its names: a
 * capitalised word of two letters or more that starts no sentence and is
 * neither written in lower case elsewhere in the text ("The" after a heading
 * is not a name when "the" occurs) nor a common word ("How" after a lost
 * full stop), or any word in capitals within a sentence ("the word THAT").
 * A text mostly in capitals has none.
 */
export function safeWords(text: string, findNames: boolean): SafeWords {
  const source = NON_ASCII.test(text) ? text.normalize('NFKC').replaceAll('\u2212', '-') : text;
  const words: string[] = [];
  const capitalised: number[] = [];
  /** Capitalised words that start a sentence, or of one letter: no names, nor lower case. */
  const startCapital: number[] = [];
  /** Capitalised words in capitals throughout ("the word THAT"): emphasised, names whatever they are. */
  const shouted = new Set<number>();
  const asked: number[] = [];
  /** The first word of the sentence being read. */
  let sentenceFrom = 0;
  let sentenceStart = true;
  const n = source.length;
  let i = 0;
  while (i < n) {
    const code = source.charCodeAt(i);
    // ASCII by a table (most training text): a string per character only where one is kept.
    const kind = code < 128 ? (ASCII[code] as number) : OTHER;
    if (kind & SENTENCE_END) sentenceStart = true;
    if (findNames && ENDS_SENTENCE.has(code)) {
      if (code === QUESTION_MARK)
        for (let at = sentenceFrom; at < words.length; at++) asked.push(at);
      sentenceFrom = words.length;
    }
    if (kind & SPACE || (kind === OTHER && SPACE_CHAR.test(source[i] as string))) {
      i++;
      continue;
    }
    if (
      kind & DIGIT ||
      (code === 46 && isDigit(source.charCodeAt(i + 1)) && !isWordAt(source, i - 1))
    ) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(source)?.[0] ?? source.charAt(i);
      words.push(number.startsWith('.') ? `0${number}` : number.replaceAll(',', ''));
      i += number.length;
      continue;
    }
    if (
      kind & WORD ||
      (kind === OTHER && isWordAt(source, i)) ||
      (code === 92 && isLetterAt(source, i + 1))
    ) {
      // A word (letters, digits, underscores after its first letter), or a LaTeX command.
      let end = i + 1;
      let upper = code >= 65 && code <= 90;
      for (; end < n; end++) {
        const next = source.charCodeAt(end);
        if (next < 128 ? !((ASCII[next] as number) & (WORD | DIGIT)) : !isWordAt(source, end))
          break;
        if (next >= 65 && next <= 90) upper = true;
      }
      const abbreviation =
        end === i + 1 && source.charCodeAt(end) === 46
          ? ABBREVIATION.exec(source.slice(i, i + 16))
          : null;
      if (abbreviation) end = i + abbreviation[0].length;
      const word = abbreviation ? abbreviation[0].replaceAll('.', '') : source.slice(i, end);
      const lower = upper || code >= 128 ? word.toLowerCase() : word;
      if (findNames && lower[0] !== word[0]) {
        if (sentenceStart || word.length < 2) startCapital.push(words.length);
        else {
          capitalised.push(words.length);
          if (word === word.toUpperCase()) shouted.add(words.length);
        }
      }
      words.push(lower);
      sentenceStart = false;
      i = end;
      continue;
    }
    if (code === 45) {
      // A hyphen joins two words ("x-axis", "well-known"); anywhere else it is a minus.
      if (!(isLetterAt(source, i - 1) && isLetterAt(source, i + 1))) words.push('-');
    } else if (kind & KEPT || (kind === OTHER && SYMBOL.test(source[i] as string))) {
      words.push(source[i] as string);
    }
    i++;
  }
  if (words.length === 0 && source.trim() !== '') {
    // Nothing but punctuation ("..."): it is not every other such text.
    return { words: [source.toLowerCase().replace(/\s+/gu, ' ').trim()], names: [], asked: [] };
  }
  const passage = words.length - asked.length;
  return {
    words,
    names: capitalised.length > 0 ? namesOf(words, capitalised, startCapital, shouted) : [],
    asked: passage >= PASSAGE_WORDS && passage >= 2 * asked.length ? asked : [],
  };
}

/**
 * The capitalised words that are names: none in a text mostly in capitals
 * (more capitalised words than words in lower case).
 */
function namesOf(
  words: readonly string[],
  capitalised: readonly number[],
  startCapital: readonly number[],
  shouted: ReadonlySet<number>,
): number[] {
  const notLower = new Set([...capitalised, ...startCapital]);
  // Words in lower case: those of a letter not written with a capital.
  const writtenLower = (at: number): boolean =>
    !notLower.has(at) && isLetterAt(words[at] as string, 0);
  let lower = 0;
  for (let at = 0; at < words.length; at++) if (writtenLower(at)) lower++;
  if (capitalised.length > lower) return [];
  return capitalised.filter((at) => {
    const word = words[at] as string;
    if (shouted.has(at)) return true;
    if (NEVER_NAMES.has(word)) return false;
    // A word written in lower case elsewhere is a common word capitalised, not a name.
    for (let other = 0; other < words.length; other++) {
      if (words[other] === word && writtenLower(other)) return false;
    }
    return true;
  });
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

function isWordAt(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code < 128) {
    return (
      (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isDigit(code) || code === 95
    );
  }
  return !NOT_WORD_CHAR.test(text[at] as string);
}

function isLetterAt(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  return code < 128
    ? (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
    : LETTER.test(text[at] as string);
}
