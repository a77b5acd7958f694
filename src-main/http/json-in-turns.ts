import { TurnClock } from '../service/threads/turn-clock.ts';

/**
 * `JSON.stringify({ [key]: items, ...rest })`, byte for byte, with the items
 * written a few at a time and the event loop let turn between them once they
 * held the thread its budget (turn-clock.ts). The answer to 100 texts of
 * 10 KB sent to `/audit` is 1.1 MB of JSON: made at once, it held the server
 * 13-17 ms in one turn. An array's JSON is its items' JSON, comma-separated,
 * in brackets (an item with no JSON, such as `undefined`, is `null` there);
 * an object's, its members in order. So `rest` must not hold `key`, and no
 * key may read as an array index ("0", "12"): an object lists those first.
 */
/** JSON.stringify as it is: no JSON (undefined) for `undefined` or a function, which its type omits. */
const jsonOf = JSON.stringify as (value: unknown) => string | undefined;

export async function stringifyLeadingArray(
  key: string,
  items: readonly unknown[],
  rest: Record<string, unknown>,
): Promise<string> {
  const clock = new TurnClock();
  const parts: string[] = [];
  for (const item of items) {
    parts.push(jsonOf(item) ?? 'null');
    await clock.breathe();
  }
  const others = JSON.stringify(rest);
  return `{${JSON.stringify(key)}:[${parts.join(',')}]${others === '{}' ? '' : `,${others.slice(1, -1)}`}}`;
}
