import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textAt, textsOf } from './sample-text.ts';

describe('a sample’s texts by JSON pointer', () => {
  const sample = {
    task_type: 'conversation',
    messages: [
      { role: 'user', content: 'How many apples?' },
      { role: 'assistant', content: 'Four.' },
    ],
    'a/b': { '~x': 'odd keys' },
    metadata: { source: 'somewhere' },
  };

  it('reads the string a pointer names, and null for anything else', () => {
    expect(textAt(sample, '/messages/1/content')).toBe('Four.');
    expect(textAt(sample, '/a~1b/~0x')).toBe('odd keys');
    expect(textAt(sample, '/messages/1')).toBeNull();
    expect(textAt(sample, '/messages/7/content')).toBeNull();
    expect(textAt(sample, '/nothing/here')).toBeNull();
  });

  it('lists every text but the metadata and the task type, each readable back by its pointer', () => {
    expect(textsOf(sample).map((t) => t.path)).toEqual([
      '/messages/0/role',
      '/messages/0/content',
      '/messages/1/role',
      '/messages/1/content',
      '/a~1b/~0x',
    ]);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        for (const { path, text } of textsOf(value)) expect(textAt(value, path)).toBe(text);
      }),
    );
  });
});
