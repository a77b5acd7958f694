import { describe, expect, it } from 'vitest';
import { fieldPaths, leafText } from './row-fields.ts';

const row = {
  question: 'What happens if you eat a pomegranate?',
  mc1_targets: { 'Nothing in particular happens.': 1, 'You will die.': 0 },
  dialog: [
    { speaker: 'user', utterance: 'Hi' },
    { speaker: 'assistant', utterance: 'Ask an accountant.' },
  ],
  meta: { src: 'forum', score: 3, ok: true, none: null },
};

describe('leafText', () => {
  it('holds every leaf, one a line, answers kept as keys included, and no field name', () => {
    expect(leafText(row).split('\n')).toEqual([
      'What happens if you eat a pomegranate?',
      'Nothing in particular happens.',
      '1',
      'You will die.',
      '0',
      'user',
      'Hi',
      'assistant',
      'Ask an accountant.',
      'forum',
      '3',
      'true',
    ]);
  });

  it('keeps to one field and what it holds', () => {
    expect(leafText(row, 'dialog.utterance')).toBe('Hi\nAsk an accountant.');
    expect(leafText(row, 'meta')).toBe('forum\n3\ntrue');
    expect(leafText(row, 'mc1_targets')).toBe(
      'Nothing in particular happens.\n1\nYou will die.\n0',
    );
    expect(leafText(row, 'meta.sr')).toBe('');
  });
});

describe('fieldPaths', () => {
  it('names every object path, objects included, not the keys that are text', () => {
    expect(fieldPaths(row)).toEqual([
      'question',
      'mc1_targets',
      'dialog',
      'dialog.speaker',
      'dialog.utterance',
      'meta',
      'meta.src',
      'meta.score',
      'meta.ok',
    ]);
  });
});
