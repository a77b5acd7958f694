import { excerpt, plural, type TextRule, spanOf } from '../rule.ts';

/**
 * Repetition and truncation, after the Gopher (Rae et al. 2021), C4 and
 * FineWeb quality heuristics, with their published thresholds. They apply to
 * free text only and only above a minimum size, where they are meaningful.
 */

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

export const emptyRule: TextRule = {
  code: 'empty',
  dimension: 'coherence',
  severity: 'error',
  describe: () => 'the text is empty',
  detect: (text) => (text.trim() === '' ? { count: 1 } : null),
};

/**
 * Gopher: duplicate lines (> 30% of lines) mark boilerplate or loops. It is a
 * warning, since plans and tables repeat lines on purpose; the repair removes
 * only a line that repeats the line right before it (a generation loop).
 */
export const repeatedLinesRule: TextRule = {
  code: 'repeated_lines',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `${plural(f.count, 'repeated line')}, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!text.includes('\n')) return null;
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length >= 20);
    if (lines.length < 4) return null;
    const seen = new Set<string>();
    let duplicates = 0;
    let example = '';
    for (const line of lines) {
      if (seen.has(line)) {
        duplicates++;
        example ||= line.slice(0, 40);
      } else seen.add(line);
    }
    return duplicates / lines.length > 0.3 ? { count: duplicates, example } : null;
  },
  fix: (text) => {
    let previous = '';
    return text
      .split('\n')
      .filter((line) => {
        const key = line.trim();
        const repeat = key.length >= 20 && key === previous;
        if (key !== '') previous = key;
        return !repeat;
      })
      .join('\n');
  },
};

/** One word of two or more letters, three or more times, single-spaced ("the the the"; not a "T T T" table). */
const STUTTER = /\b(\p{L}[\p{L}']+)(?: \1\b){2,}/giu;

/** The same word three or more times in a row ("the the the"): a generation loop or a paste error. */
export const repeatedWordsRule: TextRule = {
  code: 'repeated_words',
  dimension: 'coherence',
  severity: 'error',
  describe: (f) => `a word repeated in a row, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    const found = text.match(STUTTER);
    if (!found) return null;
    const span = spanOf(text, found[0]);
    const example = found[0].slice(0, 40);
    return span ? { count: found.length, example, span } : { count: found.length, example };
  },
  fix: (text) => text.replace(STUTTER, '$1'),
};

/**
 * Gopher: the most frequent 2/3/4-gram covering too much of the text
 * (0.20 / 0.18 / 0.16 of its word characters). N-grams are counted as numbers
 * (word ids, then n-gram ids) rather than joined strings: this rule sees every
 * long text, and string keys made it cost as much as the tokenizer.
 */
const NGRAM_LIMITS = [0.2, 0.18, 0.16] as const;
const ID_SPACE = 2 ** 21;

function topNgramShare(list: string[]): { share: number; gram: string } {
  const wordIds = new Map<string, number>();
  const ids = list.map((w) => {
    let id = wordIds.get(w);
    if (id === undefined) {
      id = wordIds.size;
      wordIds.set(w, id);
    }
    return id;
  });
  const totalChars = list.reduce((sum, w) => sum + w.length, 0);
  let best = { share: 0, gram: '', over: false };
  // prefixIds[i]: dense id of the (n-1)-gram starting at i, refined one word per round
  let prefixIds = ids.slice();
  for (let n = 2; n <= 4; n++) {
    const gramIds = new Map<number, number>();
    const counts: number[] = [];
    const next: number[] = [];
    for (let i = 0; i + n <= ids.length; i++) {
      const key = (prefixIds[i] ?? 0) * ID_SPACE + (ids[i + n - 1] ?? 0);
      let id = gramIds.get(key);
      if (id === undefined) {
        id = gramIds.size;
        gramIds.set(key, id);
        counts.push(0);
      }
      counts[id] = (counts[id] ?? 0) + 1;
      next.push(id);
    }
    let topId = -1;
    let topCount = 1;
    for (let id = 0; id < counts.length; id++) {
      if ((counts[id] ?? 0) > topCount) {
        topCount = counts[id] ?? 0;
        topId = id;
      }
    }
    if (topId >= 0) {
      const at = next.indexOf(topId);
      const gram = list.slice(at, at + n);
      const share = (topCount * gram.join('').length) / totalChars;
      const limit = NGRAM_LIMITS[n - 2] ?? 1;
      if (share > limit && !best.over) best = { share, gram: gram.join(' '), over: true };
    }
    prefixIds = next;
  }
  return best.over ? best : { share: 0, gram: '' };
}

export const repeatedNgramsRule: TextRule = {
  code: 'repeated_ngrams',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `one phrase makes up much of the text: "${f.example ?? ''}"`,
  detect: (text) => {
    if (text.length < 500) return null;
    const list = words(text);
    if (list.length < 100) return null;
    const top = topNgramShare(list);
    return top.share > 0 ? { count: 1, example: top.gram } : null;
  },
};

const TERMINAL = /[.!?…"'”’)\]}>:;*`~\p{Extended_Pictographic}\p{Emoji_Presentation}]$/u;

/**
 * C4/FineWeb: text that stops mid-sentence. Only long prose is judged (at least
 * 30 words, last line at least 8 words, not a list item or heading), so lists,
 * code and short answers are not flagged. An unclosed code fence is always an error.
 */
export const truncatedRule: TextRule = {
  code: 'truncated',
  dimension: 'coherence',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `the text seems cut off: "${f.example ?? ''}"`,
  detect: (text) => {
    const trimmed = text.trimEnd();
    if ((trimmed.match(/```/g)?.length ?? 0) % 2 === 1) {
      return { count: 1, example: 'an unclosed ``` code block' };
    }
    if (TERMINAL.test(trimmed)) return null;
    const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1).trim();
    if (/^([-*+•#>|]|\d+[.)])/.test(lastLine)) return null;
    if (words(lastLine).length < 8 || (trimmed.match(/\s+/g)?.length ?? 0) < 29) return null;
    return { count: 1, example: excerpt(trimmed, trimmed.length, 30) };
  },
};

/** Gopher: too many symbols per word, or too few words with letters, is not natural language. */
export const wordSaladRule: TextRule = {
  code: 'not_natural_language',
  dimension: 'fluency',
  severity: 'warning',
  freeTextOnly: true,
  describe: (f) => `the text reads as symbols or noise more than language (${f.example ?? ''})`,
  detect: (text) => {
    if (text.length < 200 || text.includes('```')) return null;
    const tokens = text.match(/\S+/g) ?? [];
    if (tokens.length < 50) return null;
    const withLetters = text.match(/\S*\p{L}\S*/gu)?.length ?? 0;
    const alphabetic = withLetters / tokens.length;
    if (alphabetic < 0.8)
      return { count: 1, example: `${Math.round(alphabetic * 100)}% of words have letters` };
    const symbols = (text.match(/#|\.\.\.|…/g)?.length ?? 0) / tokens.length;
    if (symbols > 0.1) return { count: 1, example: `${symbols.toFixed(2)} symbols per word` };
    return null;
  },
};
