import { describe, expect, it } from 'vitest';
import { commonsenseQa, gsm8k } from '../../testing/real-data.ts';
import { markupRule, whitespaceRule } from './formatting.ts';
import { emailRule } from './safety.ts';

const fixMarkup = (text: string): string => markupRule.fix?.(text) ?? text;
const fixWhitespace = (text: string): string => whitespaceRule.fix?.(text) ?? text;

describe('markup_debris', () => {
  it('strips tags and entities left by scraping', () => {
    expect(fixMarkup('<b>Note</b>: Tom &amp; Jerry')).toBe('Note: Tom & Jerry');
    expect(fixMarkup('One.<br/>Two.')).toBe('One.\nTwo.');
    expect(fixMarkup('<p>One.</p>\n<p>Two.</p>')).toBe('One.\n\nTwo.');
    expect(fixMarkup('<a href="https://x.org" target=_blank>link</a>')).toBe('link');
    expect(fixMarkup('<td nowrap>cell</td>')).toBe('cell');
    expect(markupRule.detect('<span class="c">x</span>')?.count).toBe(2);
  });

  it('leaves comparisons alone', () => {
    for (const text of [
      'a<b and b>c, so a<c.',
      'If x<b>y then stop.',
      'for i<p and p>0',
      'Use a<i or i>n as the loop bound.',
    ]) {
      expect(markupRule.detect(text)).toBeNull();
      expect(fixMarkup(text)).toBe(text);
    }
  });

  it('leaves tags named in prose or in code alone', () => {
    for (const text of [
      'Wrap the paragraph in a <p> tag.',
      'The <table> element holds <tr> and <td> elements.',
      'Use the <b> and <i> tags for emphasis.',
      'Add the tag <br> where a line should break.',
      'Write "<br>" to break a line.',
      'Type `<b>bold</b>` to get bold text.',
      '```html\n<p>Hello</p>\n```',
    ]) {
      expect(markupRule.detect(text)).toBeNull();
      expect(fixMarkup(text)).toBe(text);
    }
  });
});

describe('whitespace', () => {
  it('does not report two spaces after a sentence end', () => {
    for (const text of ['Done.  Next one.', 'Really?  Yes!  Sure.', 'He said "no."  Then left.']) {
      expect(whitespaceRule.detect(text)).toBeNull();
      expect(fixWhitespace(text)).toBe(text);
    }
    expect(whitespaceRule.detect('two  spaces')?.count).toBe(1);
    expect(fixWhitespace('two  spaces. Then  more.  End')).toBe('two spaces. Then more.  End');
  });

  it('never changes code, fenced or inline', () => {
    const fenced = 'Check it:\n```python\nprint(1 == 1))  # True   \n\n\n\n\nx  = 2\n```\nDone.';
    expect(whitespaceRule.detect(fenced)).toBeNull();
    expect(fixWhitespace(fenced)).toBe(fenced);
    const messy = 'Run  this:  `a  =  1`  now.   \n```\nx  = 1  \n```  ';
    expect(fixWhitespace(messy)).toBe('Run this: `a  =  1` now.\n```\nx  = 1  \n```');
    expect(whitespaceRule.detect(fixWhitespace(messy))).toBeNull();
  });

  it('keeps the space before inline code', () => {
    expect(fixWhitespace('Run `ls`  now ')).toBe('Run `ls` now');
  });

  it('is quiet on GSM8K and CommonsenseQA, whose double spaces follow sentence ends', () => {
    const fields = [
      ...gsm8k().flatMap((s) => [s.question, s.answer]),
      ...commonsenseQa().flatMap((s) => [s.context, ...s.choices]),
    ];
    const reported = fields.filter((f) => whitespaceRule.detect(f) !== null);
    expect(reported.length).toBeLessThan(fields.length * 0.01);
  });
});

describe('messages', () => {
  it('say plurals as English does', () => {
    expect(markupRule.describe({ count: 2, example: '<b>' })).toBe(
      '2 HTML tags or entities left in the text, e.g. "<b>"',
    );
    expect(markupRule.describe({ count: 1, example: '<b>' })).toMatch(/^1 HTML tag or entity /);
    expect(emailRule.describe({ count: 2 })).toBe('2 e-mail addresses');
  });
});
