/**
 * The order in which vote `vote` shows `count` choices: `order[position]` is
 * the original index shown at `position`. Vote 0 shows them as they are;
 * vote v rotates them by v, and every other round of `count` votes also
 * reverses them, so over `count` votes each choice stands once in every
 * position: a model's preference for a position (often the first, or "A")
 * spreads evenly instead of always favouring one answer. Deterministic, so a
 * re-run asks the same questions.
 */
export function choiceOrder(count: number, vote: number): number[] {
  if (count <= 0) return [];
  const shift = vote % count;
  const reversed = Math.floor(vote / count) % 2 === 1;
  const order = Array.from({ length: count }, (_, position) => (position + shift) % count);
  return reversed ? order.reverse() : order;
}
