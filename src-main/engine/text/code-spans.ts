/**
 * Code in a text: fenced blocks (an unclosed fence runs to the end) and inline
 * code. Inside code, tags, entities and runs of spaces are content, so the
 * markup and whitespace rules neither report nor change them there.
 */
const CODE_SPAN = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;

/** A noncharacter (U+FFFF), which text practically never holds, standing for code. */
export const CODE_FILLER = '\uffff';

/**
 * The text with each character of its code replaced by `filler` (spaces by
 * default), so offsets still match and the prose around code reads as it is.
 */
export function blankCode(text: string, filler = ' '): string {
  return text.includes('`') ? text.replace(CODE_SPAN, (code) => filler.repeat(code.length)) : text;
}

/** Applies `map` to each stretch of prose between code spans, leaving code as it is. */
export function mapOutsideCode(text: string, map: (prose: string) => string): string {
  if (!text.includes('`')) return map(text);
  let out = '';
  let cursor = 0;
  for (const match of text.matchAll(CODE_SPAN)) {
    out += map(text.slice(cursor, match.index)) + match[0];
    cursor = match.index + match[0].length;
  }
  return out + map(text.slice(cursor));
}

/**
 * Rewrites the prose of a text as a whole (so a rule sees "`ls`  now" as it
 * reads) while code stays as it is: `rewrite` gets the text with code masked
 * by CODE_FILLER, must keep every filler, and the code is put back in their
 * place. A text that holds the filler itself cannot be masked safely and is
 * left as it is.
 */
export function rewriteProse(text: string, rewrite: (masked: string) => string): string {
  if (!text.includes('`')) return rewrite(text);
  if (text.includes(CODE_FILLER)) return text;
  const code = [...text.matchAll(CODE_SPAN)].map((m) => m[0]).join('');
  let at = 0;
  // Code units, not code points: the filler stands for each UTF-16 unit of code.
  return rewrite(blankCode(text, CODE_FILLER)).replace(/\uffff/g, () => code[at++] ?? '');
}

const INDENTED = /^(?: {4}|\t)/;
/** An indented line that is a list item or prose (nested lists, indented paragraphs), not code. */
const INDENTED_LIST_ITEM = /^\s+(?:[-*+•]|\d+[.)]|[A-Za-z][.)])\s+[^;{}=<>]*$/;
const INDENTED_PROSE =
  /^\s+(?!(?:return|def|if|for|while|class|import|from|print|var|let|const|function|else|elif|try|except)\b)\p{L}[\p{L}'’-]*[,:]?(?: [^\s;{}=<>]+){2,}[^;{}=<>]*$/u;

/**
 * Markdown's indented code: a line indented by four spaces or a tab that does
 * not read as a list item or prose (those are nested lists and indented
 * paragraphs). Its spacing is the code's own.
 */
export const isIndentedCode = (line: string): boolean => {
  if (!INDENTED.test(line)) return false;
  const trimmed = line.trimEnd();
  return !INDENTED_LIST_ITEM.test(trimmed) && !INDENTED_PROSE.test(trimmed);
};
