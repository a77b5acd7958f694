import { describe, expect, it } from 'vitest';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { oasstTree } from '../testing/oasst-tree.ts';
import { readJsonl } from '../testing/real-data.ts';
import { rowToSample, sampleToRow } from './index.ts';

type Row = Record<string, unknown>;

const tree = oasstTree;

function replies(node: unknown): Row[] {
  return (node as Row).replies as Row[];
}

describe('OASST trees', () => {
  it('follows the best-ranked replies to a path that ends with an answer', () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    expect(sample.messages).toEqual([
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: 'Four.' },
      { role: 'user', content: 'And 3 + 3?' }, // "Why?" comes first but was never answered
      { role: 'assistant', content: 'Six.' },
    ]);
    expect(sample).toMatchObject({ message_tree_id: 't1', tree_state: 'ready_for_export' });
    expect(JSON.stringify(sampleToRow(sample, row, 'oasst'))).toBe(JSON.stringify(row));
  });

  it('stops at the last answer when every question below it is unanswered', () => {
    const row = tree();
    const m3 = replies(row.prompt)[1] as Row;
    m3.replies = [{ message_id: 'm4', text: 'Why?', role: 'prompter', replies: [] }];
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    expect(sample.messages.map((m) => m.content)).toEqual(['What is 2 + 2?', 'Four.']);
    // written back unchanged: the unanswered question stays in the tree
    expect(JSON.stringify(sampleToRow(sample, row, 'oasst'))).toBe(JSON.stringify(row));
  });

  it('ends on the prompt only when nobody answered it', () => {
    const row = { prompt: { text: 'Hello?', role: 'prompter', replies: [] } };
    expect((rowToSample(row, 'oasst') as ConversationSample).messages).toEqual([
      { role: 'user', content: 'Hello?' },
    ]);
  });

  it('adds messages past the end of the path as new replies', () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const messages = [
      ...sample.messages,
      { role: 'user', content: 'And 4 + 4?' },
      { role: 'assistant', content: 'Eight.' },
    ];
    const back = sampleToRow({ ...sample, messages }, row, 'oasst');
    const m7 = replies(replies(replies(back.prompt)[1])[1])[1];
    expect(replies(m7)).toEqual([
      {
        text: 'And 4 + 4?',
        role: 'prompter',
        replies: [{ text: 'Eight.', role: 'assistant', replies: [] }],
      },
    ]);
    expect((rowToSample(back, 'oasst') as ConversationSample).messages).toEqual(messages);
  });

  it('cuts the path when the sample has fewer messages, keeping the other branches', () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const back = sampleToRow({ ...sample, messages: sample.messages.slice(0, 2) }, row, 'oasst');
    const m3 = replies(back.prompt)[1];
    expect(replies(m3).map((r) => r.message_id)).toEqual(['m4']);
    expect(replies(tree().prompt)).toHaveLength(2); // the original is untouched
    expect(replies(replies(row.prompt)[1])).toHaveLength(2);
  });

  it('ends on an answer in every real tree (no unanswered last turn)', () => {
    for (const row of readJsonl('oasst_en_100_trees.jsonl')) {
      const { messages } = rowToSample(row, 'oasst') as ConversationSample;
      expect(messages.at(-1)?.role).toBe('assistant');
    }
  });

  it('walks a very deep tree without overflowing the stack', () => {
    let node: Row = { text: 'last', role: 'assistant' };
    for (let depth = 0; depth < 50_000; depth++) {
      node = { text: `turn ${depth}`, role: depth % 2 ? 'assistant' : 'prompter', replies: [node] };
    }
    const sample = rowToSample({ prompt: node }, 'oasst') as ConversationSample;
    expect(sample.messages).toHaveLength(50_001);
  });

  it("writes roles back in the tree's vocabulary", () => {
    const row = tree();
    const sample = rowToSample(row, 'oasst') as ConversationSample;
    const messages = sample.messages.map((m, i) => (i === 2 ? { ...m, role: 'assistant' } : m));
    const back = sampleToRow({ ...sample, messages }, row, 'oasst');
    expect(replies(replies(back.prompt)[1])[1]?.role).toBe('assistant');
    expect((back.prompt as Row).role).toBe('prompter');
  });
});
