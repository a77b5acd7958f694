/**
 * A raw Server-Sent Events body as the tests read it, in order: comments
 * (`: keepalive`) and events, each with its `event:` name (null when none)
 * and its `data:` lines joined.
 */
export type SseItem = { comment: string } | { event: string | null; data: string };

export function parseSse(raw: string): SseItem[] {
  const items: SseItem[] = [];
  for (const block of raw.split('\n\n')) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) items.push({ comment: line.slice(1).trim() });
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) items.push({ event, data: data.join('\n') });
  }
  return items;
}

/** Only the events, comments left out. */
export const sseEvents = (raw: string): { event: string | null; data: string }[] =>
  parseSse(raw).flatMap((item) => ('data' in item ? [item] : []));
