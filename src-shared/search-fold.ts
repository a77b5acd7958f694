/**
 * The form a text search compares: lowercased, and the typographic quotes
 * and apostrophes as the ASCII ones (`don’t` and `don't`, `“so”` and
 * `"so"`), on the row's side and the search's alike. Real datasets mix both
 * (GSM8K writes `Janet’s`, a person types `Janet's`), and a search that
 * missed one of them read as "no such row". Each folded character is one
 * UTF-16 unit for one, so a match's place is the same in the text as shown.
 */

const QUOTES = /[\u2018\u2019\u201a\u201b\u02bc\uff07\u201c\u201d\u201e\u201f\uff02]/g;

const ASCII_QUOTE: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201a': "'", // ‚ (low single quote)
  '\u201b': "'", // ‛
  '\u02bc': "'", // ʼ (modifier letter apostrophe)
  '\uff07': "'", // ＇ (fullwidth)
  '\u201c': '"', // “
  '\u201d': '"', // ”
  '\u201e': '"', // „
  '\u201f': '"', // ‟
  '\uff02': '"', // ＂ (fullwidth)
};

export function searchFold(text: string): string {
  return text.toLowerCase().replace(QUOTES, (quote) => ASCII_QUOTE[quote] ?? quote);
}
