import { excerpt, plural, type TextRule } from '../rule.ts';

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
    return found ? { count: found.length, example: found[0].slice(0, 40) } : null;
  },
  fix: (text) => text.replace(STUTTER, '$1'),
};

/** Gopher: the most frequent 2/3/4-gram covering too much of the text (0.20 / 0.18 / 0.16). */
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
    const totalChars = list.reduce((sum, w) => sum + w.length, 0);
    for (const [n, limit] of [
      [2, 0.2],
      [3, 0.18],
      [4, 0.16],
    ] as const) {
      const counts = new Map<string, number>();
      for (let i = 0; i + n <= list.length; i++) {
        const gram = list.slice(i, i + n).join(' ');
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
      let top = '';
      let topCount = 0;
      for (const [gram, count] of counts) {
        if (count > topCount) {
          top = gram;
          topCount = count;
        }
      }
      const share = (topCount * top.replaceAll(' ', '').length) / totalChars;
      if (topCount > 1 && share > limit) return { count: topCount, example: top };
    }
    return null;
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
    if (words(lastLine).length < 8 || words(trimmed).length < 30) return null;
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
    const tokens = text.split(/\s+/).filter(Boolean);
    if (tokens.length < 50) return null;
    const alphabetic = tokens.filter((t) => /\p{L}/u.test(t)).length / tokens.length;
    if (alphabetic < 0.8)
      return { count: 1, example: `${Math.round(alphabetic * 100)}% of words have letters` };
    const symbols = (text.match(/#|\.\.\.|…/g)?.length ?? 0) / tokens.length;
    if (symbols > 0.1) return { count: 1, example: `${symbols.toFixed(2)} symbols per word` };
    return null;
  },
};
