import { describe, expect, it } from 'vitest';
import { wordSaladRule } from './repetition.ts';

/** A tweet of 50-odd words, a fifth of them hashtags. */
const tweet =
  'Spent the whole weekend hiking the ridge trail with friends and the views were unreal. ' +
  'We started before sunrise, watched the fog lift over the valley, and ate lunch by the lake. ' +
  'Already planning the next trip for the autumn colours. ' +
  '#hiking #outdoors #nature #weekend #mountains #sunrise #friends #travel #autumn #2024 #lakeview #trailrunning';

describe('not_natural_language', () => {
  it('reads a tweet’s hashtags as words, not symbols', () => {
    expect(wordSaladRule.detect(tweet)).toBeNull();
  });

  it('still finds text that is mostly bare # marks or ellipses', () => {
    const marks = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? '#' : `word${i}`)).join(' ');
    expect(wordSaladRule.detect(marks)).not.toBeNull();
    const ellipses = Array.from({ length: 60 }, (_, i) => (i % 4 === 0 ? '…' : 'and then')).join(
      ' ',
    );
    expect(wordSaladRule.detect(ellipses)).not.toBeNull();
    const headings = Array.from({ length: 30 }, () => '## Heading line').join('\n');
    expect(wordSaladRule.detect(headings)).not.toBeNull();
  });

  it('reads a reply of code whose fences were lost, or of a table of figures, as no noise', () => {
    // OASST, ShareGPT and code sets: the fence dropped, its language left on a line of its own.
    const lean =
      "Here's an implementation of insertion sort in Lean 4:\n\nlean\n\n" +
      Array.from(
        { length: 12 },
        (_, i) =>
          `def step${i} {α : Type} [LE α] (a : Array α) (lo : Nat) : Array α :=\n  let mut i := lo + ${i}\n  a[i] := a[i - 1]`,
      ).join('\n');
    expect(wordSaladRule.detect(lean)).toBeNull();
    // A table of figures (a steam table, results, a timetable), with bars or flattened.
    const rows = Array.from(
      { length: 30 },
      (_, i) => `| ${(1 + i / 10).toFixed(1)} | .${900 - i * 7} |`,
    );
    expect(
      wordSaladRule.detect(
        `The table of multipliers:\n| Expansion | Multiplier |\n${rows.join('\n')}`,
      ),
    ).toBeNull();
    const flattened = Array.from(
      { length: 60 },
      (_, i) => `${(1 + i / 10).toFixed(1)} .${900 - i * 7}`,
    );
    expect(wordSaladRule.detect(`Expansion. Multiplier. ${flattened.join(' ')}`)).toBeNull();
  });

  it('still finds noise that only looks like code: symbols without names', () => {
    const noise = Array.from({ length: 40 }, () => '<<< >>> ;;; {{ }} == ## ~~').join('\n');
    expect(wordSaladRule.detect(noise)).not.toBeNull();
  });
});
