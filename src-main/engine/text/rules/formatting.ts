import { decodeHTMLStrict } from 'entities';
import {
  blankCode,
  CODE_FILLER,
  isIndentedCode,
  mapOutsideCode,
  rewriteProse,
} from '../code-spans.ts';
import { excerpt, plural, type TextRule, spanOf } from '../rule.ts';
import { debrisTags, type Tag } from './html-tags.ts';

/** Markup and whitespace debris. */

const HTML_ENTITY = /&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});/gi;

/** Strips debris tags (a line break for `<br>` inside a line, a paragraph break between paragraphs). */
export function stripTags(text: string): string {
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
    } else if (tag.name === 'br' && !/^[ \t]*(?:\n|$)/.test(text.slice(tag.end))) {
      // Inside a line a `<br>` is the break; spaces on both sides of it ("one <br> two") were
      // its padding and go, spaces after it alone indent the next line and stay. At a line's
      // end (or the text's) it doubled the break that follows it, and goes alone.
      const padded = /[ \t]$/.test(out);
      out = `${out.replace(/[ \t]+$/, '')}\n`;
      if (padded) cursor += /^[ \t]*/.exec(text.slice(cursor))?.[0].length ?? 0;
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
 * Whitespace debris: runs of spaces or tabs inside a line, whitespace at line ends,
 * runs of blank lines, carriage returns and whitespace around the text. What
 * is deliberate stays: code (fenced, inline, or indented by four spaces or a
 * tab), a line's leading indentation, columns aligned with spaces (a run that
 * ends where a run of the line above or below ends) and the header over such
 * columns (as many runs as the row below), table rows (pipes, or
 * tabs between cells on neighbouring lines), and two
 * spaces after a sentence end: a typing convention, kept whether a text types
 * it throughout or once (texts written by many hands, MATH's solutions, mix
 * both; no reader sees the difference).
 */
const SPACE_RUN = /(?<=\S) {2,}(?=\S)/g;
/** A sentence end: its mark, then closing quotes, brackets or the `$` closing inline maths (".$"). */
const ENDS_SENTENCE = /[.!?]["'”’)\]$]*$/;
const PIPE_ROW = /^\s*\|.*\|\s*$/;
/** A tab between two characters of a line (not indentation): a column, or debris. */
const INNER_TAB = /\S[ \t]*\t[ \t]*\S/;
/** The tab, with the spaces around it, that stands between two words. */
const INNER_TAB_RUN = /(?<=\S)[ \t]*\t[ \t]*(?=\S)/g;
/** A list item's marker and the tab after it ("1.\tExperience"): a layout of its own. */
const LIST_MARKER_TAB = /^\s*(?:\d{1,3}[.)]|[-*+•]|[A-Za-z][.)])[ \t]*\t[ \t]*/;
/**
 * LaTeX display maths opening after a run of spaces ("we have  \begin{align*}",
 * "that  \[x^2"): the source's layout before a block TeX sets on its own line,
 * never seen by a reader.
 */
const DISPLAY_MATH_START = /^(?:\\begin\{|\\\[|\$\$)/;

/**
 * A string literal of unfenced code: quoted right after a call's or a
 * subscript's bracket or an assignment (`print("a    b    sum")`, `x = 'a  b'`),
 * where its spaces are the program's output, not debris. A quotation in prose
 * follows a word, a space or a comma (`He said, "hi"`): it stays prose.
 */
const CODE_STRING = /(?:\w[([]|[[{]|=\s*)(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;

/** Where a line's code string literals lie, `[start, end)`, for the runs inside them to stay. */
function codeStrings(line: string): [number, number][] {
  const spans: [number, number][] = [];
  if (!line.includes('"') && !line.includes("'")) return spans;
  for (const match of line.matchAll(CODE_STRING))
    spans.push([match.index, match.index + match[0].length]);
  return spans;
}

/** A list item's marker before a run of spaces ("*  Introduce", "1.  Red"): the item's indent. */
const LIST_MARKER_END = /^\s*(?:\d{1,3}[.)]|[-*+•])$/;
const TRAILING = /[ \t]+$/;
const EXTRA_BLANK_LINES = /\n{4,}/g;

interface WhitespaceScan {
  count: number;
  kinds: string[];
  fixed: string;
}

/** The cells of a line split by tabs (its indentation aside). */
const tabCells = (line: string): string[] => line.trim().split(/[ \t]*\t[ \t]*/);

const MAX_CELL = 40;

/** How many tab-separated cells a line holds (0 without a tab between words). */
const cellCount = (line: string): number =>
  line.includes('\t') && INNER_TAB.test(line) ? tabCells(line).length : 0;

const shortCells = (line: string): boolean =>
  tabCells(line).every((cell) => cell.length <= MAX_CELL);

/**
 * The lines that are rows of a tab-separated table: three or more lines in a
 * row with as many cells each, most of them short (two lines will do with
 * three short cells or more). A tab that slipped into a line or two of prose
 * is none.
 */
function tableLines(lines: string[]): Set<number> {
  const rows = new Set<number>();
  const cells = lines.map(cellCount);
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && cells[j] === cells[i]) j++;
    const n = cells[i] ?? 0;
    const block = lines.slice(i, j);
    const short = block.filter(shortCells).length;
    const table =
      n > 0 &&
      ((block.length >= 3 && short * 2 > block.length) ||
        (block.length === 2 && n >= 3 && short === 2));
    if (table) for (let k = i; k < j; k++) rows.add(k);
    i = j;
  }
  return rows;
}

/** Where runs of two or more spaces end on a line (the columns the next word starts at). */
function runEnds(line: string): Set<number> {
  const ends = new Set<number>();
  for (const m of line.trimEnd().matchAll(/ {2,}|\t+/g)) ends.add(m.index + m[0].length);
  return ends;
}

/** Normalises the whitespace of prose whose code is masked (CODE_FILLER keeps offsets). */
function scanWhitespace(prose: string): WhitespaceScan {
  const kinds = new Set<string>();
  let count = 0;
  const lines = prose.split('\n');
  let ends: (Set<number> | undefined)[] | undefined;
  const endsAt = (i: number): Set<number> | undefined => {
    ends ??= [];
    if (i < 0 || i >= lines.length) return undefined;
    return (ends[i] ??= runEnds(lines[i] ?? ''));
  };
  // A column: runs ending at one place on three lines in a row (this one and the
  // lines above and below, or the two above or below it: the first and last rows of a
  // column count too), or on a neighbour where both lines hold several columns (a
  // chance match of one gap is not).
  const aligned = (i: number, end: number): boolean => {
    const above = endsAt(i - 1)?.has(end) ?? false;
    const below = endsAt(i + 1)?.has(end) ?? false;
    if (above && below) return true;
    if (!above && !below) return false;
    if (above ? endsAt(i - 2)?.has(end) : endsAt(i + 2)?.has(end)) return true;
    const own = endsAt(i)?.size ?? 0;
    const other = endsAt(above ? i - 1 : i + 1)?.size ?? 0;
    return own >= 2 && other >= 2;
  };
  /** Runs of spaces between two words of line i (its indentation aside). */
  const innerRuns = (i: number): number =>
    (endsAt(i)?.size ?? 0) - (/^[ \t]/.test(lines[i] ?? '') ? 1 : 0);
  // A table's header over rows aligned with each other, its names set apart as their values are
  // but not over them (a truth table's "P    Q    R    S", its T and F centred below): gaps of
  // three spaces or more, as many as the row below it has, which shares two or more of its
  // column ends with the next.
  const headsTable = (i: number): boolean => {
    const own = innerRuns(i);
    if (own < 2 || own !== innerRuns(i + 1)) return false;
    // Set apart on purpose: every gap three spaces or more ("Here  is the  table:" is debris).
    if ((lines[i] ?? '').trim().match(/(?<=\S) {2}(?=\S)/) !== null) return false;
    const [first, second] = [endsAt(i + 1), endsAt(i + 2)];
    if (!first || !second) return false;
    let shared = 0;
    for (const end of first) if (second.has(end)) shared++;
    return shared >= 2;
  };
  let tables: Set<number> | undefined;
  const out = lines.map((line, i) => {
    if (isIndentedCode(line)) return line;
    let next = line;
    const tabbed = line.includes('\t') && INNER_TAB.test(line.replace(LIST_MARKER_TAB, ''));
    tables ??= prose.includes('\t') ? tableLines(lines) : new Set();
    const tabTable = tabbed && tables.has(i);
    if (line.includes('  ') && !tabTable && !PIPE_ROW.test(line.trimEnd()) && !headsTable(i)) {
      const literals = codeStrings(line);
      next = line.replace(SPACE_RUN, (run: string, at: number) => {
        const end = at + run.length;
        if (aligned(i, end) || LIST_MARKER_END.test(line.slice(0, at))) return run;
        if (literals.some(([from, to]) => at > from && end < to)) return run;
        if (DISPLAY_MATH_START.test(line.slice(end, end + 8))) return run;
        if (run.length === 2 && ENDS_SENTENCE.test(line.slice(0, at))) {
          return run;
        }
        count++;
        kinds.add('runs of spaces');
        return ' ';
      });
    }
    // A tab between two words of a line that is no column of a table: a space that went wrong.
    if (tabbed && !tabTable && !PIPE_ROW.test(line.trimEnd())) {
      const marker = LIST_MARKER_TAB.exec(next)?.[0] ?? '';
      next =
        marker +
        next.slice(marker.length).replace(INNER_TAB_RUN, () => {
          count++;
          kinds.add('tabs inside lines');
          return ' ';
        });
    }
    const trailing = TRAILING.exec(next);
    if (trailing) {
      count++;
      kinds.add('trailing spaces');
      next = next.slice(0, trailing.index);
    }
    return next;
  });
  let fixed = out.join('\n');
  const blankRuns = fixed.match(EXTRA_BLANK_LINES)?.length ?? 0;
  if (blankRuns > 0) {
    count += blankRuns;
    kinds.add('runs of blank lines');
    fixed = fixed.replace(EXTRA_BLANK_LINES, '\n\n\n');
  }
  // Around the text: blank lines, and spaces before a first line that is not indented code.
  const head = /^\s*\n/.exec(fixed)?.[0] ?? '';
  const rest = fixed.slice(head.length);
  const lead = isIndentedCode(rest.split('\n', 1)[0] ?? '')
    ? ''
    : (/^[ \t]+/.exec(rest)?.[0] ?? '');
  const trimmed = rest.slice(lead.length).trimEnd();
  if (head !== '' || lead !== '' || trimmed.length !== rest.length - lead.length) {
    count++;
    kinds.add('leading or trailing whitespace');
  }
  return { count, kinds: [...kinds], fixed: trimmed };
}

/**
 * Whether a text's carriage returns are debris: one standing alone (not
 * before a line feed), or line endings mixed (CRLF and LF). A text that ends
 * every line with CRLF is written on Windows (MBPP's code): a convention of
 * its source, the same on every row, not a defect of one.
 */
function strayCarriageReturns(text: string): boolean {
  if (!text.includes('\r')) return false;
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 13) {
      if (text.charCodeAt(i + 1) !== 10) return true;
      crlf++;
      i++;
    } else if (code === 10) lf++;
  }
  return crlf > 0 && lf > 0;
}

/** Anything the scan could change: the cheap test every field takes first. */
const MAYBE_WHITESPACE = / {2}|[ \t]\n|\n\n\n\n|\r|^\s|\s$|\S[ \t]*\t/;

export const whitespaceRule: TextRule = {
  code: 'whitespace',
  dimension: 'formatting',
  severity: 'warning',
  describe: (f) => `${plural(f.count, 'whitespace defect')} (${f.example ?? ''})`,
  detect: (text) => {
    if (!MAYBE_WHITESPACE.test(text)) return null;
    // Spacing inside code is the code's own: only the prose is judged.
    const scan = scanWhitespace(blankCode(text, CODE_FILLER));
    const stray = strayCarriageReturns(text);
    const kinds = stray ? [...scan.kinds, 'carriage returns'] : scan.kinds;
    const count = scan.count + (stray ? 1 : 0);
    return count > 0 ? { count, example: kinds.join(', ') } : null;
  },
  // Stray or mixed line endings become LF everywhere (code too, or a text would keep mixed
  // endings); a text that ends every line with CRLF keeps them (its source's convention);
  // everything else changes only in prose.
  fix: (text) =>
    rewriteProse(
      strayCarriageReturns(text) ? text.replace(/\r\n?/g, '\n') : text,
      (prose) => scanWhitespace(prose).fixed,
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
    const at = text.search(INVISIBLE);
    if (at < 0) return null;
    const count = text.match(INVISIBLE)?.length ?? 0;
    return { count, example: excerpt(text, at), span: [at, at + 1] };
  },
  fix: (text) => text.replace(INVISIBLE, ''),
};
