/**
 * HTML tags left in text by scraping ("<b>Note</b>", "<br/>", '<a href="x">'),
 * told apart from angle brackets that are not markup: comparisons ("a<b and
 * b>c", "x<b>y"), and tags named in prose ("wrap it in a <p> tag"). No HTML
 * library fits (a parser reads any "<b and b>" as a tag too), so this is a
 * strict reading of tag syntax: known element names, and attributes that are
 * `name=value` pairs or known boolean attributes.
 */

const ELEMENTS =
  'a|abbr|b|br|blockquote|center|code|dd|del|div|dl|dt|em|font|h[1-6]|hr|i|img|ins|li|nobr|ol|p|pre|small|span|strike|strong|sub|sup|table|tbody|td|tfoot|th|thead|tr|u|ul|wbr';
const BOOLEAN_ATTRIBUTES = 'checked|disabled|hidden|nowrap|noshade|readonly|selected';
const VALUE = String.raw`"[^"<>]*"|'[^'<>]*'|[^\s"'=<>\x60]+`;
const ATTRIBUTE = String.raw`\s+(?:[a-z_:][-\w:.]*\s*=\s*(?:${VALUE})|(?:${BOOLEAN_ATTRIBUTES})(?=[\s/>]))`;
const TAG = new RegExp(
  String.raw`<(?:(${ELEMENTS})((?:${ATTRIBUTE})*)\s*\/?|\/(${ELEMENTS})\s*)>`,
  'gi',
);

/** One-letter elements that, bare and unclosed, are more likely a comparison ("x<b>y"). */
const COMPARISON_LIKE = new Set(['a', 'b', 'i', 'u']);

/** A tag named in prose: followed by "tag(s)"/"element(s)" (maybe after more tags), or after them. */
const NAMED_AFTER =
  /^(?:\s*(?:,|and|or|&)?\s*<\/?[a-z][\w-]*[^<>]*>)*(?:\s*["'”’]\s*|\s+)(?:tags?|elements?)\b/i;
const NAMED_BEFORE = /\b(?:tags?|elements?)\s*[:"'“‘]?\s*$/i;
/** Quoted on its own: '"<br>"' or '“<p>”'. */
const QUOTED = /^["'“‘]$/;

export interface Tag {
  start: number;
  end: number;
  name: string;
  closing: boolean;
}

/** The tags in `prose` that are markup debris, in order. Run it on text with its code blanked. */
export function debrisTags(prose: string): Tag[] {
  if (!prose.includes('<')) return [];
  const lower = prose.toLowerCase();
  const found: Tag[] = [];
  for (const m of prose.matchAll(TAG)) {
    const closing = m[3] !== undefined;
    const name = (m[1] ?? m[3] ?? '').toLowerCase();
    const start = m.index;
    const end = start + m[0].length;
    const after = prose.slice(end, end + 200);
    const before = prose.slice(Math.max(0, start - 40), start);
    if (NAMED_AFTER.test(after) || NAMED_BEFORE.test(before)) continue;
    if (QUOTED.test(before.slice(-1)) && QUOTED.test(after.slice(0, 1))) continue;
    if (!closing && !m[2] && COMPARISON_LIKE.has(name) && !lower.includes(`</${name}>`)) continue;
    found.push({ start, end, name, closing });
  }
  return found;
}
