/**
 * Whether a text reads as one of a few European languages, by its function
 * words: the profanity list is English, and some of its words are ordinary
 * words elsewhere ("negro" is black in Spanish and Portuguese, "slut" the end
 * in Swedish and Danish, "fag" a school subject in Norwegian and Danish). A
 * language identifier would say the same at the cost of its tables in every
 * thread that audits (see dataset/languages.ts, which keeps them in a worker);
 * a word found in the list is rare, so this test runs only then.
 */

export type Language = 'spanish' | 'portuguese' | 'swedish' | 'danish' | 'norwegian';

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/** Frequent function words of each language that are no English words ("de", "at", "for", "a" left out). */
const FUNCTION_WORDS: Record<Language, ReadonlySet<string>> = {
  spanish: words(
    'el los las del que y en es un una por con para se su al lo como más pero sus muy también está son',
  ),
  portuguese: words(
    'o os no do da dos das que e em é um uma por com para não na mais como mas ao ele ela são está',
  ),
  swedish: words(
    'och att det är som en på för med har inte av till den om var jag ett vi nu så också eller från hon han',
  ),
  danish: words(
    'og det er som en på med har ikke af til den om var jeg et vi nu så også eller fra hun han',
  ),
  norwegian: words(
    'og det er som en på med har ikke av til den om var jeg et vi nå så også eller fra hun han',
  ),
};

const ENGLISH = words(
  'the of and to is in that it was for on are with as his they be at this have from or by not but',
);

/** Distinct function words of another language a text holds at least, beyond its English ones. */
const MIN_FUNCTION_WORDS = 3;

const WORD = /\p{L}+/gu;

/** Whether the (lower-case) text is written in `language` rather than English. */
export function readsAs(lower: string, language: Language): boolean {
  const own = FUNCTION_WORDS[language];
  const found = new Set<string>();
  const english = new Set<string>();
  for (const [word] of lower.matchAll(WORD)) {
    if (own.has(word)) found.add(word);
    else if (ENGLISH.has(word)) english.add(word);
  }
  return found.size >= MIN_FUNCTION_WORDS && found.size > english.size;
}
