import { describe, expect, it } from 'vitest';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { rowToSample, sampleToRow } from './index.ts';

type Row = Record<string, unknown>;

/** A small hand-made tree: two ranked answers, the second (rank 0) with a follow-up. */
function tree(): Row {
  return {
    message_tree_id: 't1',
    tree_state: 'ready_for_export',
    prompt: {
      message_id: 'm1',
      text: 'What is 2 + 2?',
      role: 'prompter',
      replies: [
        { message_id: 'm2', text: 'Five.', role: 'assistant', rank: 1, replies: [] },
        {
          message_id: 'm3',
          text: 'Four.',
          role: 'assistant',
          rank: 0,
          replies: [
            { message_id: 'm4', text: 'And 3 + 3?', role: 'prompter', replies: [] },
            { message_id: 'm5', text: 'Why?', role: 'prompter', replies: [] },
          ],
        },
      ],
    },
  };
}

function replies(node: unknown): Row[] {
  return (node as Row).replies as Row[];
}

describe('OASST trees', () => {
  it('follows rank 0, else the first reply', () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    expect(sample.messages).toEqual([
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: 'Four.' },
      { role: 'user', content: 'And 3 + 3?' },
    ]);
    expect(sample).toMatchObject({ message_tree_id: 't1', tree_state: 'ready_for_export' });
    expect(JSON.stringify(sampleToRow(sample, row, 'oasst'))).toBe(JSON.stringify(row));
  });

  it("adds a message past the end of the path as the last node's only reply", () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const messages = [...sample.messages, { role: 'assistant', content: 'Six.' }];
    const back = sampleToRow({ ...sample, messages }, row, 'oasst');
    const m4 = replies(replies(back.prompt)[1])[0];
    expect(replies(m4)).toEqual([{ text: 'Six.', role: 'assistant', replies: [] }]);
    expect((rowToSample(back, 'oasst') as ConversationSample).messages).toEqual(messages);
  });

  it('cuts the path when the sample has fewer messages, keeping the other branches', () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const back = sampleToRow({ ...sample, messages: sample.messages.slice(0, 2) }, row, 'oasst');
    const m3 = replies(back.prompt)[1];
    expect(replies(m3).map((r) => r.message_id)).toEqual(['m5']);
    expect(replies(tree().prompt)).toHaveLength(2); // the original is untouched
    expect(replies(replies(row.prompt)[1])).toHaveLength(2);
  });

  it("writes roles back in the tree's vocabulary", () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const messages = sample.messages.map((m, i) => (i === 2 ? { ...m, role: 'assistant' } : m));
    const back = sampleToRow({ ...sample, messages }, row, 'oasst');
    expect(replies(replies(back.prompt)[1])[0]?.role).toBe('assistant');
    expect((back.prompt as Row).role).toBe('prompter');
  });
});
