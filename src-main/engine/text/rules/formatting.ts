import { decodeHTMLStrict } from 'entities';
import { excerpt, plural, type TextRule } from '../rule.ts';

/** Markup and whitespace debris. */

const HTML_TAG_NAMES =
  'a|abbr|b|br|blockquote|center|code|div|em|font|h[1-6]|hr|i|img|li|ol|p|pre|small|span|strong|sub|sup|table|tbody|td|th|thead|tr|u|ul';
const HTML_TAG = new RegExp(`</?(?:${HTML_TAG_NAMES})(?:\\s[^<>]*)?/?>`, 'gi');
const HTML_ENTITY = /&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});/gi;
/** Code is where tags and entities are legitimate: fenced blocks and inline code. */
const CODE_SPAN = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;

function outsideCode(text: string): string {
  return text.includes('`') ? text.replace(CODE_SPAN, ' ') : text;
}

function mapOutsideCode(text: string, map: (prose: string) => string): string {
  if (!text.includes('`')) return map(text);
  let out = '';
  let cursor = 0;
  for (const match of text.matchAll(CODE_SPAN)) {
    out += map(text.slice(cursor, match.index)) + match[0];
    cursor = match.index + match[0].length;
  }
  return out + map(text.slice(cursor));
}

function stripMarkup(prose: string): string {
  return decodeHTMLStrict(
    prose
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/p>\s*<p(?:\s[^<>]*)?>/gi, '\n\n')
      .replace(HTML_TAG, ''),
  ).replace(/\u00a0/g, ' ');
}

export const markupRule: TextRule = {
  code: 'markup_debris',
  dimension: 'formatting',
  severity: 'error',
  describe: (f) =>
    `${plural(f.count, 'HTML tag or entity')} left in the text, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!text.includes('<') && !text.includes('&')) return null;
    const prose = outsideCode(text);
    const tags = prose.match(HTML_TAG) ?? [];
    const entities = (prose.match(HTML_ENTITY) ?? []).filter(
      (entity) => decodeHTMLStrict(entity) !== entity,
    );
    const count = tags.length + entities.length;
    return count > 0 ? { count, example: tags[0] ?? entities[0] ?? '' } : null;
  },
  fix: (text) => mapOutsideCode(text, stripMarkup),
};

const WIKI_MARKUP = /\[(?:header|title|step|substeps|sub-steps)\]/gi;

export const wikiMarkupRule: TextRule = {
  code: 'wiki_markup',
  dimension: 'formatting',
  severity: 'warning',
  describe: (f) => `${plural(f.count, 'WikiHow-style marker')} such as "${f.example ?? ''}"`,
  detect: (text) => {
    if (!text.includes('[')) return null;
    const found = text.match(WIKI_MARKUP);
    return found ? { count: found.length, example: found[0] } : null;
  },
};

/** Exactly two spaces between words: a typing slip. Longer runs are alignment or art, and are kept. */
const DOUBLE_SPACE = /(?<=\S) {2}(?=\S)/g;
const TRAILING_SPACE = /[ \t]+$/gm;
const EXTRA_BLANK_LINES = /\n{4,}/g;

export const whitespaceRule: TextRule = {
  code: 'whitespace',
  dimension: 'formatting',
  severity: 'warning',
  describe: (f) => `${plural(f.count, 'whitespace defect')} (${f.example ?? ''})`,
  detect: (text) => {
    const kinds: string[] = [];
    let count = 0;
    const add = (n: number, kind: string): void => {
      if (n > 0) {
        count += n;
        kinds.push(kind);
      }
    };
    add(text.match(DOUBLE_SPACE)?.length ?? 0, 'double spaces');
    add(text.match(TRAILING_SPACE)?.length ?? 0, 'trailing spaces');
    add(text.match(EXTRA_BLANK_LINES)?.length ?? 0, 'runs of blank lines');
    add(text.includes('\r') ? 1 : 0, 'carriage returns');
    add(text !== text.trim() ? 1 : 0, 'leading or trailing whitespace');
    return count > 0 ? { count, example: kinds.join(', ') } : null;
  },
  fix: (text) =>
    text
      .replace(/\r\n?/g, '\n')
      .replace(DOUBLE_SPACE, ' ')
      .replace(TRAILING_SPACE, '')
      .replace(EXTRA_BLANK_LINES, '\n\n\n')
      .trim(),
};

/** Zero-width space, BOM, word joiner and Mongolian vowel separator; not ZWJ/ZWNJ, which scripts and emoji need. */
const INVISIBLE = /[\u200b\ufeff\u2060\u180e]/g;

export const invisibleCharsRule: TextRule = {
  code: 'invisible_chars',
  dimension: 'formatting',
  severity: 'warning',
  describe: (f) => plural(f.count, 'invisible character'),
  detect: (text) => {
    const count = text.match(INVISIBLE)?.length ?? 0;
    return count > 0 ? { count, example: excerpt(text, text.search(INVISIBLE)) } : null;
  },
  fix: (text) => text.replace(INVISIBLE, ''),
};
