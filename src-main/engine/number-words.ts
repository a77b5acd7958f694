/**
 * English number words, read into numbers: for a solution that concludes in
 * words ("three days"), for a list that announces its length ("Here are
 * five tips:") and for the benches that write numbers as words.
 */

/** zero to nineteen; a word's index is its value. */
export const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
export const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const NUMBER_WORD = new RegExp(
  String.raw`\b(?:(${TENS.join('|')})(?:[-\s](${UNITS.slice(1, 10).join('|')}))?|(${UNITS.join('|')})|(dozen|hundred|thousand|million))\b`,
  'gi',
);
const SCALE: Record<string, number> = { dozen: 12, hundred: 100, thousand: 1000, million: 1e6 };

/**
 * Numbers written as words ("three days", "twenty-five", "a dozen"): a
 * solution may conclude in words what its final line states in digits.
 */
export function numberWords(text: string): number[] {
  if (!/[a-z]/i.test(text)) return [];
  const found: number[] = [];
  for (const m of text.matchAll(NUMBER_WORD)) {
    const [, tens, unit, small, scale] = m;
    if (tens)
      found.push(
        20 + 10 * TENS.indexOf(tens.toLowerCase()) + (unit ? UNITS.indexOf(unit.toLowerCase()) : 0),
      );
    else if (small) found.push(UNITS.indexOf(small.toLowerCase()));
    else if (scale) found.push(SCALE[scale.toLowerCase()] ?? 0);
  }
  return found;
}
