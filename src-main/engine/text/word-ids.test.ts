import { describe, expect, it } from 'vitest';
import { prng } from '../dataset/prng.ts';
import { wordsOf } from './rule.ts';
import { wordIds } from './word-ids.ts';

/** The reference: `wordsOf`'s words, numbered by a Map in order of first appearance. */
function reference(text: string): { words: string[]; ids: number[] } {
  const words = wordsOf(text);
  const seen = new Map<string, number>();
  const ids = words.map((w) => {
    let id = seen.get(w);
    if (id === undefined) {
      id = seen.size;
      seen.set(w, id);
    }
    return id;
  });
  return { words: [...words], ids };
}

function read(text: string): { words: string[]; ids: number[] } {
  const found = wordIds(text);
  const words: string[] = [];
  for (let i = 0; i < found.count; i++) {
    const start = found.starts[i] ?? 0;
    words.push(found.lower.slice(start, start + (found.lengths[i] ?? 0)));
  }
  return { words, ids: [...found.ids.slice(0, found.count)] };
}

const PIECES = [
  'the',
  'The',
  'THE',
  'cat',
  "don't",
  "'",
  ' ',
  '  ',
  '\n',
  '.',
  ',',
  '-',
  '42',
  '٣',
  'İ',
  'ß',
  'Σ',
  'ς',
  'é',
  'e\u0301',
  '日本',
  '𝐀𝐁',
  '😀',
  '\ud800',
  '\udc00',
  '\u00a0',
  '_',
  'a',
];

describe('wordIds', () => {
  it('reads the words and ids the regex and a Map give, on text of every kind', () => {
    const random = prng(21);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(random() * PIECES.length)] ?? '';
      expect(read(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('tells apart words whose hashes meet in the table (long texts of many words)', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
    const text = [...words, ...words.slice(0, 2500)].join(' ');
    expect(read(text)).toEqual(reference(text));
  });
});
