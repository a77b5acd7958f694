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
});
