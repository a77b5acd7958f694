import { fmix32, hashString } from './minhash.ts';

/**
 * Which words of a duplicate key carry meaning that prose edits do not:
 * numbers, operators and symbols, variables, LaTeX commands and code
 * identifiers, names, units, and the words of mathematics and logic ("sum",
 * "product", "not"), of order ("smallest", "leftmost"), pronouns and colours. Two questions that differ in one of these
 * ask different things even when every other word is the same: they are
 * siblings of one template, not copies (see duplicates.ts).
 *
 * The words are those `wordsForDuplicates` makes (lower case, numbers read
 * whole, symbols one character each).
 */

/**
 * The kinds of content token. Two rows differing in tokens of one kind fill
 * a template differently ("sum" for "product"); a token of one kind put for
 * one of another ("she" for "fewer") is an edit, not a template.
 */
export const ContentKind = {
  prose: 0,
  number: 1,
  symbol: 2,
  variable: 3,
  name: 4,
  unit: 5,
  /** Operations, properties and objects of mathematics and logic. */
  math: 6,
  /** Comparison, order and position. */
  order: 7,
  pronoun: 8,
  colour: 9,
  /**
   * A prose word of the sentence that asks ("… the cumulated age of the
   * giraffes?"), in a row where a passage comes before it: the same passage
   * with another question asked of it is another item (reading
   * comprehension, a shared table or story), not a copy. Set by
   * template-siblings.ts from the mark safe-words.ts gives.
   */
  asked: 10,
} as const;
export type ContentKind = (typeof ContentKind)[keyof typeof ContentKind];

const words = (list: string): string[] => list.split(' ');

/** The vocabulary of each kind that is a word list. */
export const VOCABULARY: ReadonlyMap<string, ContentKind> = new Map<string, ContentKind>([
  // Numbers written as words: "four consecutive" is not "six consecutive".
  ...words(
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen ' +
      'fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy ' +
      'eighty ninety hundred thousand million billion trillion half halves quarter quarters ' +
      'twice double triple thrice dozen',
  ).map((w) => [w, ContentKind.number] as const),
  ...words(
    'sum product difference quotient ratio remainder mean median mode average range ' +
      'increase decrease increased decreased plus minus times divided multiplied ' +
      'add subtract multiply divide added subtracted square squared cube cubed root roots sqrt ' +
      'prime composite even odd positive negative nonnegative nonpositive nonzero ' +
      'integer integers real rational irrational complex natural whole ' +
      'injective surjective bijective continuous differentiable finite infinite ' +
      'true false not no never always all none some every only neither either both non ' +
      'necessarily sufficient necessary possible impossible ' +
      'sin cos tan cot sec csc arcsin arccos arctan log ln exp ' +
      'union intersection subset complement perimeter area volume radius diameter circumference ' +
      'numerator denominator factor factors multiple multiples divisor divisors gcd lcm ' +
      'probability expected variance deviation ' +
      'angle altitude bisector perpendicular parallel tangent chord diagonal hypotenuse vertex ' +
      'centroid midpoint triangle circle rectangle polygon ellipse parabola hyperbola sphere ' +
      'cylinder cone plane line axis cuboid pentagon hexagon octagon rhombus trapezium ' +
      'trapezoid prism pyramid',
  ).map((w) => [w, ContentKind.math] as const),
  ...words(
    'maximum minimum max min largest smallest greatest least larger smaller greater less fewer ' +
      'more most higher lower highest lowest longest shortest longer shorter ' +
      'above below inside outside before after left right north south east west ' +
      'first second third fourth fifth sixth seventh last next previous ' +
      'leftmost rightmost oldest youngest tallest heaviest lightest cheapest fastest slowest ' +
      'earliest latest older younger taller heavier lighter cheaper faster slower ' +
      'earlier later newest newer ' +
      // Directions of movement: "Turn around" is not "Turn left".
      'forward forwards backward backwards around clockwise counterclockwise anticlockwise',
  ).map((w) => [w, ContentKind.order] as const),
  ...words('he she him her his hers they them their we us our you your').map(
    (w) => [w, ContentKind.pronoun] as const,
  ),
  ...words(
    'red orange yellow green blue purple pink brown black white grey gray silver gold teal ' +
      'magenta turquoise burgundy mauve fuchsia',
  ).map((w) => [w, ContentKind.colour] as const),
  // Units of measure, money and time.
  ...words(
    'mm cm dm km mg kg lb lbs oz ml dl kl ft feet foot inch inches yard yards mile miles ' +
      'meter meters metre metres liter liters litre litres gram grams kilogram kilograms ' +
      'pound pounds ounce ounces gallon gallons cup cups mph kph kmh hz khz mhz ghz ' +
      'kb mb gb tb kw kwh mw watt watts volt volts amp amps joule joules newton newtons ' +
      'celsius fahrenheit kelvin degree degrees radian radians percent ' +
      'dollar dollars cent cents euro euros ' +
      'secs seconds minute minutes hour hours day days week weeks month months year years',
  ).map((w) => [w, ContentKind.unit] as const),
]);

/**
 * Connectives that are operators where logic stands beside them ("not True
 * and False", "p or q", "( True ) or"): "and" for "or" there is another
 * expression; in prose they stay prose.
 */
export const CONNECTIVES: ReadonlySet<string> = new Set([
  'and',
  'or',
  'xor',
  'nand',
  'nor',
  'implies',
  'iff',
]);
const LOGIC_OPERANDS = new Set(['true', 'false', 'not']);

/** Articles and pronouns that are single letters: prose unless they stand by a symbol. */
const PROSE_LETTERS = new Set(['a', 'i']);

/**
 * The patterns contentKind asks of every word, made once: a regex literal in a
 * function is a new RegExp object each time it is evaluated, and these are
 * evaluated for every word of every row (~75 MB in a pass over 100,000 rows).
 */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const DIGIT = /\d/;
const LETTERS = /^\p{L}+$/u;
const LETTER = /\p{L}/u;

const isSymbol = (word: string | undefined): boolean =>
  word !== undefined && word.length === 1 && !LETTER_OR_DIGIT.test(word);

/** English words of two letters; any other two-letter word is a variable or a point's name ("yz", "AB"). */
export const TWO_LETTER_WORDS: ReadonlySet<string> = new Set(
  'am an as at be by do go he if in is it me my no of oh ok on or so to up us we'.split(' '),
);

/**
 * What the kind of a word of two or more characters reads of them, found in
 * one pass over the word with its hash (`readWord`): all digits and points
 * (a number), or a digit or an underscore among them (a variable).
 */
export const CharTraits = { none: 0, numeric: 1, digitOrUnderscore: 2 } as const;

/**
 * A word's hash (`hashString`'s, seed and finaliser included) and its
 * character traits (CharTraits) in one pass over its characters, left in
 * `readWord.hash` and `readWord.traits` (no object a word: this runs for
 * every word verification reads).
 */
export function readWord(word: string): void {
  let h = 0x811c9dc5;
  let digits = 0;
  let points = 0;
  let underscore = false;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    h = Math.imul(h ^ code, 0x01000193);
    if (code >= 48 && code <= 57) digits++;
    else if (code === 46) points++;
    else if (code === 95) underscore = true;
  }
  readWord.hash = fmix32(h);
  readWord.traits =
    (word.length > 0 && digits + points === word.length ? CharTraits.numeric : 0) |
    (digits > 0 || underscore ? CharTraits.digitOrUnderscore : 0);
}
readWord.hash = 0;
readWord.traits = 0;

/**
 * A fixed set of words looked up by their hashes, in an open-addressed
 * table: a word's hash is made anyway (for its shingles and tagged hash),
 * where a Map or Set of strings hashed each word again and probed a larger
 * table. Each word carries a value (its kind).
 */
class HashedWords {
  readonly #words: string[];
  readonly #values: Uint8Array;
  readonly #hashes: Uint32Array;
  readonly #mask: number;
  /** Each slot: a word's index plus one, 0 where empty. */
  readonly #slots: Uint16Array;

  constructor(entries: Iterable<readonly [string, number]>) {
    const list = [...entries];
    this.#words = list.map(([word]) => word);
    this.#values = Uint8Array.from(list, ([, value]) => value);
    this.#hashes = Uint32Array.from(this.#words, (word) => hashString(word));
    // At most an eighth full: a miss (most words) ends at its first empty slot.
    let size = 16;
    while (size < list.length * 8) size *= 2;
    this.#mask = size - 1;
    this.#slots = new Uint16Array(size);
    this.#hashes.forEach((hash, index) => {
      let slot = hash & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = index + 1;
    });
  }

  /** The value of `word` (whose `hashString` is `hash`), or -1 when it is not here. */
  get(word: string, hash: number): number {
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const entry = this.#slots[slot] as number;
      if (entry === 0) return -1;
      if (this.#hashes[entry - 1] === hash && this.#words[entry - 1] === word) {
        return this.#values[entry - 1] as number;
      }
    }
  }
}

const HASHED_VOCABULARY = new HashedWords(VOCABULARY);
const HASHED_CONNECTIVES = new HashedWords([...CONNECTIVES].map((w) => [w, 1] as const));
const HASHED_TWO_LETTER_WORDS = new HashedWords([...TWO_LETTER_WORDS].map((w) => [w, 1] as const));

/**
 * The kind of `words[at]` (prose when it is no content token). Context
 * matters for "a" and "i" (a variable when a symbol stands beside it, "$a$",
 * "a + b", else an article or a pronoun) and for the word "how many" counts.
 */
export function contentKind(words: readonly string[], at: number): ContentKind {
  readWord(words[at] as string);
  return kindOfWord(words, at, readWord.hash, readWord.traits);
}

/**
 * `contentKind`, given what `readWord` read of `words[at]` (its hash and
 * character traits): the caller that hashes every word anyway reads each once.
 */
export function kindOfWord(
  words: readonly string[],
  at: number,
  hash: number,
  traits: number,
): ContentKind {
  const word = words[at] as string;
  if (word.length === 1) {
    if (DIGIT.test(word)) return ContentKind.number;
    if (isSymbol(word)) return ContentKind.symbol;
    if (!PROSE_LETTERS.has(word)) return ContentKind.variable;
    return isSymbol(words[at - 1]) || isSymbol(words[at + 1])
      ? ContentKind.variable
      : ContentKind.prose;
  }
  if ((traits & CharTraits.numeric) !== 0) return ContentKind.number;
  if (
    HASHED_CONNECTIVES.get(word, hash) === 1 &&
    (isLogicOperand(words[at - 1]) || isLogicOperand(words[at + 1]))
  ) {
    return ContentKind.math;
  }
  // What "how many" counts is the unit of the count: "how many penguins" is not "how many giraffes".
  if (
    at >= 2 &&
    words[at - 2] === 'how' &&
    (words[at - 1] === 'many' || words[at - 1] === 'much')
  ) {
    return ContentKind.unit;
  }
  if ((traits & CharTraits.digitOrUnderscore) !== 0 || word.charCodeAt(0) === 92) {
    return ContentKind.variable;
  }
  const known = HASHED_VOCABULARY.get(word, hash);
  if (known >= 0) return known as ContentKind;
  // Any other word of two letters is a variable or a point's name ("yz", "AB").
  return word.length === 2 && LETTERS.test(word) && HASHED_TWO_LETTER_WORDS.get(word, hash) < 0
    ? ContentKind.variable
    : ContentKind.prose;
}

/** A truth value, a negation, a bracket or a lone letter other than "a" and "i" (a variable). */
function isLogicOperand(word: string | undefined): boolean {
  if (word === undefined) return false;
  if (LOGIC_OPERANDS.has(word) || word === '(' || word === ')') return true;
  return word.length === 1 && LETTER.test(word) && !PROSE_LETTERS.has(word);
}

/** Whether `words[at]` is a content token at all. */
export const isContentToken = (words: readonly string[], at: number): boolean =>
  contentKind(words, at) !== ContentKind.prose;
