import { findPhoneNumbersInText } from 'libphonenumber-js';
import { parsePhoneNumberFromString as parseWithTypes } from 'libphonenumber-js/max';
import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { readsAs, type Language } from './language-words.ts';
// The two validators alone: the package's index loads all of its ~100 (40-50 ms in every worker).
import isCreditCardModule from 'validator/lib/isCreditCard.js';
import isEmailModule from 'validator/lib/isEmail.js';
import { plural, type Finding, type TextRule, spanOf } from '../rule.ts';

// A CommonJS module each: its `module.exports` is the function, and carries it as `default` too.
const isCreditCard = isCreditCardModule.default;
const isEmail = isEmailModule.default;

/**
 * Personal data, secrets and profanity. Validation comes from libraries
 * (validator for e-mail and card numbers with Luhn, libphonenumber for
 * phones, obscenity's English list for profanity); the regexes here only
 * find candidates cheaply.
 */

const EMAIL_CANDIDATE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
/**
 * Placeholders, not anybody's address: the RFC 2606/6761 names (example.com,
 * .example, .test, .invalid, localhost), "example" under any other suffix
 * (example.edu, example.co.uk), and the generic names tutorials and
 * templates use (user@email.com, name@yourdomain.com). Some of the latter
 * are registered, but in training text they stand for "an address".
 */
const PLACEHOLDER_DOMAINS = [
  'email',
  'domain',
  'yourdomain',
  'mydomain',
  'somedomain',
  'company',
  'yourcompany',
  'mycompany',
  'website',
  'yourwebsite',
  'yoursite',
  'mysite',
  'somewhere',
  'sample',
  'test',
].join('|');
const RESERVED_DOMAIN = new RegExp(
  `@(?:[\\w-]+\\.)*(?:example(?:\\.[a-z]{2,})*|test|invalid|localhost|(?:${PLACEHOLDER_DOMAINS})\\.com)$`,
  'i',
);

function emails(text: string): string[] {
  if (!text.includes('@')) return [];
  return (text.match(EMAIL_CANDIDATE) ?? []).filter(
    (candidate) => isEmail(candidate) && !RESERVED_DOMAIN.test(candidate),
  );
}

export const emailRule: TextRule = {
  code: 'pii_email',
  dimension: 'safety',
  severity: 'error',
  describe: (f) => plural(f.count, 'e-mail address', 'e-mail addresses'),
  detect: (text) => {
    const found = emails(text);
    if (!found.length) return null;
    const span = spanOf(text, found[0] as string);
    return span ? { count: found.length, span } : { count: found.length };
  },
  fix: (text) => {
    let out = text;
    for (const email of emails(text)) out = out.replaceAll(email, '[EMAIL]');
    return out;
  },
};

/**
 * Phone-shaped runs (7 to 15 digits with the usual separators). libphonenumber
 * is thorough but slow on long text, so it only sees these runs, each with a
 * few characters of context.
 */
const PHONE_CANDIDATE =
  /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){1,4}/g;
const CONTEXT = 4;

/**
 * The valid phone numbers of one candidate's window, as [start, end) in it.
 * libphonenumber costs tens of microseconds a call, and the same windows
 * recur across a dataset (an equation, a price), so answers are kept.
 */
const windowPhones = new Map<string, [number, number][]>();
const MAX_CACHED_WINDOWS = 20_000;

function phonesIn(window: string): [number, number][] {
  let ranges = windowPhones.get(window);
  if (ranges === undefined) {
    ranges = [];
    for (const phone of findPhoneNumbersInText(window, { defaultCountry: 'US' })) {
      if (phone.number.isValid() && !isOrganisationLine(phone.number.number)) {
        ranges.push([phone.startsAt, phone.endsAt]);
      }
    }
    if (windowPhones.size >= MAX_CACHED_WINDOWS) windowPhones.clear();
    windowPhones.set(window, ranges);
  }
  return ranges;
}

/**
 * Lines that belong to an organisation, never to a person: toll-free (a
 * poison-control or crisis line, 1-800-222-1222), shared-cost, premium-rate
 * and universal-access numbers, as libphonenumber's full metadata types them
 * (the minimal metadata that finds numbers has no types). Asked only of a
 * valid number found, which is rare.
 */
const ORGANISATION_LINES = new Set(['TOLL_FREE', 'SHARED_COST', 'PREMIUM_RATE', 'UAN']);
function isOrganisationLine(e164: string): boolean {
  const type = parseWithTypes(e164)?.getType();
  return type !== undefined && ORGANISATION_LINES.has(type);
}

/** Seven ASCII digits anywhere (a phone candidate has seven): most fields stop here. */
const SEVEN_DIGITS = /\d(?:\D*\d){6}/;

/**
 * A bare run of digits with a minus sign before it is a negative number
 * (`max_so_far = -2147483648`), not a phone written with a separator.
 */
const isNegativeNumber = (text: string, start: number, candidate: string): boolean =>
  /^\d+$/.test(candidate) &&
  text[start - 1] === '-' &&
  !/[\p{L}\p{N}]/u.test(text[start - 2] ?? '');

function phones(text: string): { start: number; end: number }[] {
  if (!SEVEN_DIGITS.test(text)) return [];
  const found: { start: number; end: number }[] = [];
  for (const match of text.matchAll(PHONE_CANDIDATE)) {
    const digits = match[0].replace(/\D/g, '').length;
    if (digits < 7 || digits > 15 || isNegativeNumber(text, match.index, match[0])) continue;
    const from = Math.max(0, match.index - CONTEXT);
    const window = text.slice(from, match.index + match[0].length + CONTEXT);
    for (const [start, end] of phonesIn(window))
      found.push({ start: from + start, end: from + end });
  }
  return found.filter((range, i) => i === 0 || range.start >= (found[i - 1]?.end ?? 0));
}

function replaceRanges(
  text: string,
  ranges: { start: number; end: number }[],
  mask: string,
): string {
  let out = text;
  for (const range of [...ranges].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, range.start) + mask + out.slice(range.end);
  }
  return out;
}

export const phoneRule: TextRule = {
  code: 'pii_phone',
  dimension: 'safety',
  severity: 'error',
  describe: (f) => plural(f.count, 'phone number'),
  detect: (text) => {
    const found = phones(text);
    const first = found[0];
    return first ? { count: found.length, span: [first.start, first.end] } : null;
  },
  fix: (text) => replaceRanges(text, phones(text), '[PHONE]'),
};

const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;

function cards(text: string): string[] {
  if (!/\d{4}/.test(text)) return [];
  return (text.match(CARD_CANDIDATE) ?? []).filter((candidate) => isCreditCard(candidate));
}

export const cardRule: TextRule = {
  code: 'pii_card',
  dimension: 'safety',
  severity: 'error',
  describe: (f) => plural(f.count, 'payment card number'),
  detect: (text) => {
    const found = cards(text);
    if (!found.length) return null;
    const span = spanOf(text, found[0] as string);
    return span ? { count: found.length, span } : { count: found.length };
  },
  fix: (text) => {
    let out = text;
    for (const card of cards(text)) out = out.replaceAll(card, '[CARD]');
    return out;
  },
};

/**
 * Does a candidate look generated rather than written? Keys are random: they
 * hold digits, and mix cases or run letters and digits together for 16 or
 * more characters. Hyphenated words ("sk-learn-compatible-estimator") do not.
 */
function looksRandom(candidate: string): boolean {
  if (!/\d/.test(candidate)) return false;
  if (/[a-z]/.test(candidate) && /[A-Z]/.test(candidate)) return true;
  return (candidate.match(/[A-Za-z0-9]{16,}/g) ?? []).some(
    (run) => /\d/.test(run) && /[A-Za-z]/.test(run),
  );
}

interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** For shapes whose prefix alone is not distinctive ("sk-" starts words too). */
  random?: boolean;
}

/** Shapes of credentials that leak into datasets most often. */
const SECRET_PATTERNS: readonly SecretShape[] = [
  {
    kind: 'OpenAI key',
    pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}\b/g,
    random: true,
  },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}\b/g, random: true },
  { kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    kind: 'GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})\b/g,
  },
  { kind: 'Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, random: true },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{24,}\b/g },
  { kind: 'svc key', pattern: /\bsvc_[A-Za-z0-9_-]{32,}\b/g, random: true },
  {
    kind: 'private key',
    pattern:
      /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z]+ )?PRIVATE KEY-----|$)/g,
  },
  {
    kind: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g,
  },
];

/** A literal every secret shape holds: one scan of the text instead of one per shape. */
const SECRET_LITERALS =
  /sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abprs]-|AIza|_live_|svc_|-----BEGIN |eyJ/;

const isSecret = (shape: SecretShape, candidate: string): boolean =>
  !shape.random || looksRandom(candidate);

export const secretRule: TextRule = {
  code: 'secret',
  dimension: 'safety',
  severity: 'error',
  describe: (f) => `${plural(f.count, 'credential')} (${f.example ?? ''})`,
  detect: (text) => {
    if (!SECRET_LITERALS.test(text)) return null;
    let count = 0;
    const kinds: string[] = [];
    for (const shape of SECRET_PATTERNS) {
      const found = (text.match(shape.pattern) ?? []).filter((m) => isSecret(shape, m)).length;
      if (found) {
        count += found;
        kinds.push(shape.kind);
      }
    }
    return count ? { count, example: kinds.join(', ') } : null;
  },
  fix: (text) =>
    SECRET_PATTERNS.reduce(
      (out, shape) => out.replace(shape.pattern, (m) => (isSecret(shape, m) ? '[SECRET]' : m)),
      text,
    ),
};

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
/**
 * Words in obscenity's list that are clinical or ordinary in most training
 * text ("sex", "penis", a "cock" of a gun, a "prick" of a needle); they are not
 * reported. A dataset that wants them reported can use an upstream model.
 */
const ORDINARY = new Set([
  'sex',
  'sexy',
  'penis',
  'vagina',
  'cock',
  'cocks',
  'prick',
  'pricks',
  'hooker',
  'hookers',
  'balls',
  'boob',
  'boobs',
  // a seabird; a booby trap, a booby prize
  'booby',
  'boobies',
  'anal',
  'anus',
  'nipple',
  'nipples',
  'dick',
  'bitch',
  'bitches',
  'bastard',
  'bastards',
  'damn',
  'hell',
  // clinical, anatomical and legal vocabulary (medicine, biology, law questions)
  'semen',
  'orgasm',
  'orgasms',
  'ejaculate',
  'ejaculation',
  'rape',
  'raped',
  'rapes',
  'rapist',
  'rapists',
  'raping',
  'retardation',
  'retardant',
  'retardants',
]);

/**
 * Words that are profane in one sense and ordinary in another, told apart by
 * the words around them: "spastic paralysis" is a diagnosis, "cum laude" an
 * honour, "blue tit" a bird, "pussy willow" a plant, "retard the reaction"
 * a verb.
 */
const IN_CONTEXT: Record<string, RegExp> = {
  spastic:
    /\bspastic(?:ity)? (?:paralysis|paraplegia|diplegia|hemiplegia|quadriplegia|tetraplegia|paraparesis|tetraparesis|cerebral|gait|muscles?|colon|bladder|dysphonia|dysarthria|torticollis|movements?|tone|contractions?|type|form|ataxia|spinal|weakness|limbs?)\b|\b(?:is|are|becomes?|became|being|appears?|remains?|were|was|and|or|flaccid|spinal|limbs?|muscles?) spastic\b/,
  spastics: /\bspastics? (?:society|muscles)\b/,
  retard:
    /\bretard(?:s|ed)? (?:the|a|an|its|their|his|her|our|growth|development|progress|corrosion|combustion|fire|flames?|decay|ripening|germination|absorption|oxidation|crystallization|the\b)/,
  retarded:
    /\b(?:growth|development|mentally|was|were|is|are|been|flame)[- ]retarded\b|\bretarded (?:growth|development|potential|acceleration|motion|flow|time|field|progress)\b/,
  cum: /\b(?:magna|summa|cum) cum\b|\bcum (?:laude|grano|dividend|annexis|laude)\b|\w-cum-\w/,
  tit: /\b(?:blue|great|coal|marsh|willow|crested|long-tailed|bearded|penduline) tits?\b|\btit for tat\b/,
  tits: /\b(?:blue|great|coal|marsh|willow|crested|long-tailed|bearded|penduline) tits\b/,
  pussy: /\bpussy ?(?:willows?|cats?|foot|toes)\b/,
  ass: /\b(?:wild|an|the|his|a|domestic|african|asiatic) ass(?:es)?\b(?! ?hole)|\bass(?:es)? (?:and|or) (?:the |a )?(?:ox|oxen|mule|horse|donkey|camel)/,
  asses: /\b(?:wild|the|his|domestic) asses\b|\basses (?:and|or) /,
};

/**
 * Words in obscenity's list that are the vocabulary of a field, told apart
 * by that field's words anywhere in the text: "incest" in law, genetics or
 * anthropology, "Negro" in history (the Negro Leagues, a quotation of its
 * era), "scat" in biology or jazz, a "dyke" in geology or hydraulics, an
 * "orgy" in ancient history. Slurs and sexual words have no such field: they
 * are reported in any text.
 */
const FIELD: Record<string, RegExp> = {
  incest:
    /\b(?:laws?|legal|illegal|statutes?|crim(?:e|es|inal)|offen[cs]es?|prohibit\w*|courts?|taboos?|genetic\w*|inbreeding|offspring|recessive|consanguin\w*|anthropolog\w*|kinship|marriages?)\b/,
  negro:
    /\bnegro (?:leagues?|spirituals?|college|world series|national league|history week)\b|\b(?:century|centuries|historians?|histor(?:y|ical)|era|civil rights|slavery|emancipation|reconstruction|segregation|harlem renaissance)\b/,
  scat: /\b(?:wildlife|animals?|species|predators?|biologists?|ecolog\w*|diet|droppings|fa?eces|wolf|wolves|bears?|deer|fox|foxes|jazz|singing|singers?|vocal\w*)\b/,
  dyke: /\b(?:igneous|magma\w*|intrusi\w*|sills?|basalt\w*|granite|dolerite|volcanic|rocks?|geolog\w*|dutch|netherlands|levees?|embankments?|flood\w*|polders?)\b/,
  orgy: /\b(?:roman|romans|rome|greek|greeks|ancient|dionys\w*|bacch\w*|cults?|historians?|festivals?|rites?)\b/,
};
FIELD.dykes = FIELD.dyke as RegExp;
FIELD.orgies = FIELD.orgy as RegExp;

/**
 * Words in obscenity's (English) list that are ordinary words of another
 * language, not reported in a text written in it: "el gato negro", "filmen är
 * slut", "et viktig fag". The same word in an English text still is.
 */
const IN_LANGUAGE: Record<string, readonly Language[]> = {
  negro: ['spanish', 'portuguese'],
  slut: ['swedish', 'danish'],
  fag: ['norwegian', 'danish'],
};

/** Math markup: LaTeX commands, `\[` or `\(`, or `$...$` spans. */
const MATH_MARKUP = /\\(?:[a-z]+|[[(])|\$[^$\n]+\$/i;

/**
 * A word capitalised within a compound of three capitalised parts or more
 * joined by hyphens: a proper name ("Shite-Thaung-Tempel", a temple;
 * "Dortmund-Ems-Kanal", a canal), not a word used for itself. Two parts are
 * not enough ("Fuck-Off" stays what it is).
 */
const HYPHENATED_NAME = /^\p{Lu}[\p{L}\p{N}]*(?:-\p{Lu}[\p{L}\p{N}]*){2,}$/u;
const COMPOUND_CHAR = /[\p{L}\p{N}-]/u;
function partOfHyphenatedName(text: string, start: number, end: number): boolean {
  if (text[start - 1] !== '-' && text[end] !== '-') return false;
  let from = start;
  while (from > 0 && COMPOUND_CHAR.test(text[from - 1] ?? '')) from--;
  let to = end;
  while (to < text.length && COMPOUND_CHAR.test(text[to] ?? '')) to++;
  return HYPHENATED_NAME.test(text.slice(from, to));
}

/**
 * A word named rather than used: quoted right after "the word" or "the term"
 * ('What is the origin of the word "shit"?'), as a dictionary or a history
 * of language names it.
 */
const MENTIONED_BEFORE = /\b(?:word|term|expression|slang|swear ?word|curse ?word)s? ?["'“‘]$/;
const QUOTE_AFTER = /^["'”’]/;
function mentioned(lower: string, start: number, end: number): boolean {
  return (
    MENTIONED_BEFORE.test(lower.slice(Math.max(0, start - 20), start)) &&
    QUOTE_AFTER.test(lower.slice(end, end + 1))
  );
}

/**
 * Whether a word that reads as profanity is something else where it stands:
 * the vocabulary of the text's field (FIELD), an ordinary word of the language
 * the text is written in (IN_LANGUAGE), a part of a hyphenated proper
 * name, a word named in quotes rather than used, or, in a text of
 * mathematics, a formula's symbols read as leetspeak ("pi$$", "$3xy") or a
 * figure's points in capitals ("[ABO]").
 */
function ordinaryWhere(text: string, lower: string, start: number, end: number): boolean {
  const word = lower.slice(start, end);
  const field = FIELD[word];
  if (field?.test(lower)) return true;
  if (IN_LANGUAGE[word]?.some((language) => readsAs(lower, language))) return true;
  if (text.length === lower.length && partOfHyphenatedName(text, start, end)) return true;
  if (mentioned(lower, start, end)) return true;
  if (!MATH_MARKUP.test(text)) return false;
  const written = text.length === lower.length ? text.slice(start, end) : word;
  return word.includes('$') || (word.length <= 3 && written === written.toUpperCase());
}

/** Whether every occurrence of `word` in `lower` is the ordinary sense its context shows. */
function ordinaryInContext(word: string, lower: string): boolean {
  const context = IN_CONTEXT[word];
  if (!context) return false;
  const all = lower.match(new RegExp(`(?<![a-z])${word}(?![a-z])`, 'g'))?.length ?? 0;
  const ordinary = lower.match(new RegExp(context.source, 'g'))?.length ?? 0;
  return all > 0 && ordinary >= all;
}
/**
 * obscenity's matcher is thorough but costs several times the tokenizer per
 * character, so it runs once per distinct word and the verdicts are cached:
 * across a dataset almost every word is a cache hit. A word counts only when
 * the match covers all of it ("assorted" and "cumin" are not profane).
 */
const wordVerdicts = new Map<string, boolean>();
/** English profanity is ASCII (with leetspeak symbols): a word is a run of [a-z0-9@$*!]. */
const MAX_CACHED_WORDS = 200_000;

/**
 * A first test for a new word: all of obscenity's blacklist patterns as one
 * regex, on the word as the matcher transforms it (leetspeak, confusables,
 * repeats). No match of it means no match of any pattern, so most words skip
 * the matcher's pattern-by-pattern pass. It reads two of the matcher's
 * internals; without them (another obscenity version) every word takes the
 * full pass.
 */
interface MatcherInternals {
  blacklistedTerms?: { regExp?: RegExp }[];
  blacklistMatcherTransformers?: unknown;
  applyTransformers?: (input: string, transformers: unknown) => [number[], string];
}
const internals = matcher as unknown as MatcherInternals;
const ANY_BLACKLISTED: RegExp | null =
  internals.blacklistedTerms?.every((t) => t.regExp instanceof RegExp) &&
  typeof internals.applyTransformers === 'function'
    ? new RegExp(
        internals.blacklistedTerms.map((t) => `(?:${t.regExp?.source ?? ''})`).join('|'),
        's',
      )
    : null;

export function mayBeBlacklisted(word: string): boolean {
  if (!ANY_BLACKLISTED || !internals.applyTransformers) return true;
  const [, transformed] = internals.applyTransformers.call(
    matcher,
    word,
    internals.blacklistMatcherTransformers,
  );
  return ANY_BLACKLISTED.test(transformed);
}

function isProfaneWord(word: string): boolean {
  let verdict = wordVerdicts.get(word);
  if (verdict === undefined) {
    verdict =
      !ORDINARY.has(word) &&
      mayBeBlacklisted(word) &&
      matcher.getAllMatches(word).some((m) => m.startIndex === 0 && m.endIndex >= word.length - 2);
    if (wordVerdicts.size >= MAX_CACHED_WORDS) wordVerdicts.clear();
    wordVerdicts.set(word, verdict);
  }
  return verdict;
}

/**
 * The verdicts of the words seen so far, keyed by a 32-bit hash of the word's
 * characters, each bucket a chain of `{word, profane}` compared character by
 * character with the text: the scan below reads the words in place, so a
 * word already judged costs no substring, no string hash and no regex.
 */
interface Judged {
  word: string;
  profane: boolean;
  next: Judged | undefined;
}
const byHash = new Map<number, Judged>();

/** [a-z0-9@$*!] by char code (1 for a letter, 2 for the others), as a table. */
const WORD_CHAR = new Uint8Array(128);
const LETTER = /\p{L}/u;
for (let c = 97; c <= 122; c++) WORD_CHAR[c] = 1;
for (const c of '0123456789@$*!') WORD_CHAR[c.charCodeAt(0)] = 2;

function sameWord(word: string, lower: string, start: number): boolean {
  for (let i = 0; i < word.length; i++) {
    if (word.charCodeAt(i) !== lower.charCodeAt(start + i)) return false;
  }
  return true;
}

/**
 * A small direct-mapped cache in front of `byHash` (slot = low bits of the
 * hash): the common words of a text stay in it, close at hand, where the
 * large map costs a cache miss per word. Empty slots hold "" (never a word
 * here, and a packed array reads faster than one with holes).
 */
const RECENT_SLOTS = 4096;
const recentWords: string[] = new Array<string>(RECENT_SLOTS).fill('');
const recentProfane = new Uint8Array(RECENT_SLOTS);

/** `isProfaneWord` of `lower.slice(start, end)`, through the caches. */
function profaneAt(lower: string, start: number, end: number, hash: number): boolean {
  const slot = hash & (RECENT_SLOTS - 1);
  const recent = recentWords[slot] ?? '';
  if (recent.length === end - start && sameWord(recent, lower, start)) {
    return recentProfane[slot] === 1;
  }
  const profane = profaneInMap(lower, start, end, hash);
  recentWords[slot] = lower.slice(start, end);
  recentProfane[slot] = profane ? 1 : 0;
  return profane;
}

function profaneInMap(lower: string, start: number, end: number, hash: number): boolean {
  const head = byHash.get(hash);
  for (let entry = head; entry; entry = entry.next) {
    if (entry.word.length === end - start && sameWord(entry.word, lower, start)) {
      return entry.profane;
    }
  }
  const word = lower.slice(start, end);
  const profane = isProfaneWord(word);
  if (byHash.size >= MAX_CACHED_WORDS) byHash.clear();
  byHash.set(hash, { word, profane, next: byHash.get(hash) });
  return profane;
}

export const profanityRule: TextRule = {
  code: 'profanity',
  dimension: 'safety',
  severity: 'error',
  describe: (f) => plural(f.count, 'profane word'),
  detect: (text): Finding | null => {
    let count = 0;
    let first: string | undefined;
    const lower = text.toLowerCase();
    // One pass over the char codes: each word is judged in place, hashed as it is read.
    let start = 0;
    let letters = 0;
    let foreign = false;
    let hash = 0x811c9dc5;
    for (let i = 0; i <= lower.length; i++) {
      const c = i < lower.length ? lower.charCodeAt(i) : 32;
      const kind = c < 128 ? (WORD_CHAR[c] ?? 0) : LETTER.test(lower[i] as string) ? 3 : 0;
      if (kind !== 0) {
        if (kind === 1) letters++;
        // A letter outside ASCII makes a word of another language ("Königs" is not "k" + "nigs").
        if (kind === 3) foreign = true;
        hash = Math.imul(hash ^ c, 0x01000193);
        continue;
      }
      const length = i - start;
      // Numbers and codes ("1,234", "x86") are never profane and would only fill the cache.
      if (
        !foreign &&
        length >= 3 &&
        length <= 24 &&
        letters >= 2 &&
        profaneAt(lower, start, i, hash) &&
        !ordinaryInContext(lower.slice(start, i), lower) &&
        !ordinaryWhere(text, lower, start, i)
      ) {
        count++;
        first ??= lower.slice(start, i);
      }
      start = i + 1;
      letters = 0;
      foreign = false;
      hash = 0x811c9dc5;
    }
    if (!count) return null;
    // Lower-casing keeps the length of these words, so the span holds in the text itself.
    const span =
      first === undefined || lower.length !== text.length ? undefined : spanOf(lower, first);
    return span ? { count, span } : { count };
  },
};
