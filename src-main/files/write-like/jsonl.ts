import { spliceJsonLine } from './json-splice.ts';
import type { SourceLayout } from './layout.ts';
import type { SourcedRow } from './sourced-row.ts';

/**
 * JSON Lines written like their source: an unchanged line is its source text,
 * byte for byte; a changed one keeps its key order, spacing and escapes around
 * the values that changed (`spliceJsonLine`); a row with no source text is
 * written as JSON.stringify writes it. Every line ends with the source's newline.
 */
export async function* jsonlLinesLike(
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout,
  counter: { rows: number },
): AsyncGenerator<string> {
  const newline = layout.newline ?? '\n';
  for await (const { value, raw, changed } of rows) {
    counter.rows++;
    if (raw === undefined || raw === null) yield JSON.stringify(value) + newline;
    else yield (changed ? spliceJsonLine(raw, value) : raw) + newline;
  }
}
