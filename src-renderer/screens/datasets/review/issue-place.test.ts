import { describe, expect, it } from 'vitest';
import { issuePlace } from './issue-place.ts';

describe('issuePlace', () => {
  it('names the turn, the choice or the field an issue points at', () => {
    expect(issuePlace('/messages/1/content')).toBe('turn 2');
    expect(issuePlace('/messages/0')).toBe('turn 1');
    expect(issuePlace('/choices/3')).toBe('choice D');
    expect(issuePlace('/question')).toBe('question');
    expect(issuePlace('/answer_index')).toBe('answer index');
  });

  it('says nothing of an issue about the whole sample', () => {
    expect(issuePlace(undefined)).toBeNull();
    expect(issuePlace('')).toBeNull();
    expect(issuePlace('/')).toBeNull();
  });
});
