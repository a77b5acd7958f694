import { TurnClock } from '../service/threads/turn-clock.ts';

/**
 * `JSON.stringify({ [key]: items, ...rest })` in UTF-8, byte for byte, with
 * the items written a few at a time and the event loop let turn between them
 * once they held the thread its budget (turn-clock.ts). The answer to 100
 * texts of 10 KB sent to `/audit` is 1.1 MB of JSON: made at once, it held
 * the server 13-17 ms in one turn, and its write, encoding it, 10-13 ms more
 * (profiled); each item is encoded as it is made, and the answer's bytes are
 * written as they are. An array's JSON is its items' JSON, comma-separated,
 * in brackets (an item with no JSON, such as `undefined`, is `null` there);
 * an object's, its members in order. So `rest` must not hold `key`, and no
 * key may read as an array index ("0", "12"): an object lists those first.
 */
/** JSON.stringify as it is: no JSON (undefined) for `undefined` or a function, which its type omits. */
const jsonOf = JSON.stringify as (value: unknown) => string | undefined;

export async function jsonWithLeadingArray(
  key: string,
  items: readonly unknown[],
  rest: Record<string, unknown>,
): Promise<Uint8Array<ArrayBuffer>> {
  const clock = new TurnClock();
  const parts: Buffer[] = [Buffer.from(`{${JSON.stringify(key)}:[`)];
  const comma = Buffer.from(',');
  for (const [i, item] of items.entries()) {
    if (i > 0) parts.push(comma);
    parts.push(Buffer.from(jsonOf(item) ?? 'null'));
    await clock.breathe();
  }
  const others = JSON.stringify(rest);
  parts.push(Buffer.from(`]${others === '{}' ? '' : `,${others.slice(1, -1)}`}}`));
  return Buffer.concat(parts);
}
