import { diffChars } from 'diff';

/**
 * A role filled from several fields joined into one string (a prompt from
 * `instruction` and `input`): how the parts are joined, and how a repaired
 * string is split back into its fields. Parts are joined by a blank line,
 * empty parts left out (Alpaca's empty `input` adds nothing).
 */
export const JOIN_SEPARATOR = '\n\n';

export function joinParts(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join(JOIN_SEPARATOR);
}

export type SplitResult = { parts: string[] } | { conflict: string };

/**
 * The new value of each part after the joined string became `next`. Each
 * changed stretch (a character diff against the joined original) must fall
 * inside one part, or remove one part whole with a separator beside it (that
 * part becomes empty); a change that spans two parts or touches a separator
 * cannot be put back without guessing, and is a conflict naming the parts.
 */
export function splitJoined(
  parts: readonly string[],
  next: string,
  names: readonly string[],
): SplitResult {
  const joined = joinParts(parts);
  if (next === joined) return { parts: [...parts] };
  // Every part empty: there is nothing to split by, and the first field (the
  // instruction, the question) is where a prompt starts.
  if (joined === '') return { parts: parts.map((_, i) => (i === 0 ? next : '')) };
  // Where each present part starts and ends in the joined string.
  const spans: { index: number; start: number; end: number }[] = [];
  let at = 0;
  for (const [index, part] of parts.entries()) {
    if (part === '') continue;
    if (spans.length > 0) at += JOIN_SEPARATOR.length;
    spans.push({ index, start: at, end: at + part.length });
    at += part.length;
  }
  // A part removed whole, with one separator.
  for (const span of spans.length > 1 ? spans : []) {
    const without = parts.map((part, i) => (i === span.index ? '' : part));
    if (joinParts(without) === next) return { parts: without };
  }
  const buffers = parts.map(() => '');
  const partAt = (position: number, inserting: boolean): number | undefined => {
    for (const span of spans) {
      if (
        inserting
          ? position >= span.start && position <= span.end
          : position >= span.start && position < span.end
      ) {
        return span.index;
      }
    }
    return undefined;
  };
  const nameOf = (index: number | undefined): string =>
    index === undefined ? 'the separator' : (names[index] ?? `part ${index + 1}`);
  let old = 0;
  for (const change of diffChars(joined, next)) {
    const text = change.value;
    if (change.added) {
      const part = partAt(old, true);
      if (part === undefined) {
        return { conflict: `a repair adds text between ${describeGap(spans, old, names)}` };
      }
      buffers[part] = (buffers[part] ?? '') + text;
      continue;
    }
    const start = old;
    const end = old + text.length;
    old = end;
    if (change.removed) {
      const first = partAt(start, false);
      const last = partAt(end - 1, false);
      if (first === undefined || last === undefined || first !== last) {
        return {
          conflict: `a repair spans ${nameOf(first)} and ${nameOf(last === first ? undefined : last)}`,
        };
      }
      continue;
    }
    // Unchanged text: each character goes to the part it lies in; separators are dropped.
    for (const span of spans) {
      const from = Math.max(start, span.start);
      const to = Math.min(end, span.end);
      if (from < to) buffers[span.index] = (buffers[span.index] ?? '') + joined.slice(from, to);
    }
  }
  // With one part present there is no separator to leave: emptying it is fine.
  for (const span of spans.length > 1 ? spans : []) {
    if (buffers[span.index] === '') {
      return { conflict: `a repair empties ${nameOf(span.index)} and leaves its separator` };
    }
  }
  if (joinParts(buffers) !== next) {
    return { conflict: `a repair moves text across ${names.join(' and ')}` };
  }
  return {
    parts: buffers.map((buffer, i) =>
      spans.some((s) => s.index === i) ? buffer : (parts[i] ?? ''),
    ),
  };
}

function describeGap(
  spans: readonly { index: number; start: number; end: number }[],
  position: number,
  names: readonly string[],
): string {
  const before = spans.filter((span) => span.end <= position).at(-1);
  const after = spans.find((span) => span.start >= position);
  const name = (span: { index: number } | undefined): string =>
    span ? (names[span.index] ?? `part ${span.index + 1}`) : 'the edge';
  return `${name(before)} and ${name(after)}`;
}
