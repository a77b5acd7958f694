import { decodeHTMLStrict } from 'entities';
import { blankCode, CODE_FILLER, mapOutsideCode, rewriteProse } from '../code-spans.ts';
import { excerpt, plural, type TextRule, spanOf } from '../rule.ts';
import { debrisTags, type Tag } from './html-tags.ts';

/** Markup and whitespace debris. */

const HTML_ENTITY = /&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});/gi;

/** Strips debris tags (a line break for `<br>`, a paragraph break between paragraphs). */
function stripTags(text: string): string {
  const tags = debrisTags(blankCode(text));
  if (tags.length === 0) return text;
  let out = '';
  let cursor = 0;
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as Tag;
    out += text.slice(cursor, tag.start);
    cursor = tag.end;
    const next = tags[i + 1];
    const paragraphBreak =
      tag.name === 'p' &&
      tag.closing &&
      next?.name === 'p' &&
      !next.closing &&
      text.slice(tag.end, next.start).trim() === '';
    if (paragraphBreak) {
      out += '\n\n';
      cursor = next.end;
      i++;
    } else if (tag.name === 'br') {
      out += '\n';
    }
  }
  return out + text.slice(cursor);
}

const decodeEntities = (prose: string): string => decodeHTMLStrict(prose).replace(/\u00a0/g, ' ');

export const markupRule: TextRule = {
  code: 'markup_debris',
  dimension: 'formatting',
  severity: 'error',
  describe: (f) =>
    `${plural(f.count, 'HTML tag or entity', 'HTML tags or entities')} left in the text, e.g. "${f.example ?? ''}"`,
  detect: (text) => {
    if (!text.includes('<') && !text.includes('&')) return null;
    const prose = blankCode(text);
    const tags = debrisTags(prose).map((t) => prose.slice(t.start, t.end));
    const entities = (prose.match(HTML_ENTITY) ?? []).filter(
      (entity) => decodeHTMLStrict(entity) !== entity,
    );
    const count = tags.length + entities.length;
    if (count === 0) return null;
    const first = debrisTags(prose)[0];
    const example = tags[0] ?? entities[0] ?? '';
    const span: [number, number] | undefined = first
      ? [first.start, first.end]
      : spanOf(text, example);
    return span ? { count, example, span } : { count, example };
  },
  fix: (text) => mapOutsideCode(stripTags(text), decodeEntities),
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

/**
 * Exactly two spaces between words: a typing slip. Longer runs are alignment or
 * art, and are kept; so are two spaces after a sentence end ("done.  Next"),
 * a typing convention, not a defect.
 */
const DOUBLE_SPACE = /(?<=\S)(?<![.!?]["'”’)\]]*) {2}(?=\S)/g;
const TRAILING_SPACE = /[ \t]+$/gm;
const EXTRA_BLANK_LINES = /\n{4,}/g;

export const whitespaceRule: TextRule = {
  code: 'whitespace',
  dimension: 'formatting',
  severity: 'warning',
  describe: (f) => `${plural(f.count, 'whitespace defect')} (${f.example ?? ''})`,
  detect: (text) => {
    // Spacing inside code is the code's own: only the prose is judged.
    const prose = blankCode(text, CODE_FILLER);
    const kinds: string[] = [];
    let count = 0;
    const add = (n: number, kind: string): void => {
      if (n > 0) {
        count += n;
        kinds.push(kind);
      }
    };
    add(prose.match(DOUBLE_SPACE)?.length ?? 0, 'double spaces');
    add(prose.match(TRAILING_SPACE)?.length ?? 0, 'trailing spaces');
    add(prose.match(EXTRA_BLANK_LINES)?.length ?? 0, 'runs of blank lines');
    add(text.includes('\r') ? 1 : 0, 'carriage returns');
    add(prose !== prose.trim() ? 1 : 0, 'leading or trailing whitespace');
    return count > 0 ? { count, example: kinds.join(', ') } : null;
  },
  // Line endings are not content, so CRLF becomes LF everywhere (code too, or a
  // text would end up with mixed endings); everything else changes only in prose.
  fix: (text) =>
    rewriteProse(text.replace(/\r\n?/g, '\n'), (prose) =>
      prose
        .replace(DOUBLE_SPACE, ' ')
        .replace(TRAILING_SPACE, '')
        .replace(EXTRA_BLANK_LINES, '\n\n\n')
        .trim(),
    ),
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
    const at = text.search(INVISIBLE);
    return count > 0 ? { count, example: excerpt(text, at), span: [at, at + 1] } : null;
  },
  fix: (text) => text.replace(INVISIBLE, ''),
};
