/**
 * How choices are named to people: A, B, C... (then A2, B2... past Z), the
 * same in engine messages, the review's panes and the Overview's charts.
 */
export function choiceLetter(index: number): string {
  if (index < 0) return `#${index}`;
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : `${letter}${Math.floor(index / 26) + 1}`;
}
