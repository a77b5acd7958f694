import { describe, expect, it } from 'vitest';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { oasst } from '../testing/real-data.ts';
import { audit, fix } from '../testing/run.ts';

const conversations = oasst();

describe('conversation', () => {
  it('passes the real OpenAssistant conversations (roles alternate, no empty turns)', async () => {
    const { blocks } = await audit(conversations);
    for (const block of blocks) {
      expect(block.checks.roles?.passed).toBe(true);
      expect(block.checks.empty_turns?.passed).toBe(true);
      expect(block.checks.alternation?.passed).toBe(true);
    }
    expect(blocks.filter((b) => !b.passed)).toHaveLength(0);
  });

  it('repairs broken turns injected into real conversations', async () => {
    const broken: ConversationSample[] = conversations.slice(0, 20).map((c) => ({
      ...c,
      messages: [
        { role: 'Human', content: c.messages[0]?.content ?? '' },
        { role: 'user', content: '   ' },
        { role: 'user', content: 'Please answer briefly.' },
        ...c.messages.slice(1),
      ],
    }));
    const { blocks } = await audit(broken);
    for (const block of blocks) {
      expect(block.checks.roles?.passed).toBe(false);
      expect(block.checks.empty_turns?.passed).toBe(false);
      expect(block.checks.alternation?.passed).toBe(false);
    }
    const { outcomes } = await fix(broken);
    outcomes.forEach((outcome, i) => {
      const out = outcome.output as ConversationSample;
      const original = conversations[i]!;
      // The fix may also tidy whitespace in the turns it reads; words and roles are what must hold.
      const words = (m: { role: string; content: string }) =>
        `${m.role}: ${m.content.replace(/\s+/g, ' ').trim()}`;
      expect(words(out.messages[0]!)).toBe(
        words({
          role: 'user',
          content: `${original.messages[0]?.content}\n\nPlease answer briefly.`,
        }),
      );
      expect(out.messages.slice(1).map(words)).toEqual(original.messages.slice(1).map(words));
      expect(outcome.after?.checks.alternation?.passed).toBe(true);
    });
  });

  it('fails a conversation that holds only a system message', async () => {
    const systemOnly: ConversationSample = {
      task_type: 'conversation',
      messages: [{ role: 'system', content: 'You are helpful.' }],
    };
    const { blocks } = await audit([
      systemOnly,
      {
        task_type: 'conversation',
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
        ],
      },
    ]);
    expect(blocks[0]?.passed).toBe(false);
    expect(blocks[0]?.checks.alternation?.issues.map((i) => i.code)).toEqual(['no_dialogue']);
    expect(blocks[1]?.passed).toBe(true);
    const off = await audit([systemOnly], 1, 'no_dialogue is fine.');
    expect(off.blocks[0]?.passed).toBe(true);
  });

  it('reads only the last turn by default and every turn with turns: "all"', async () => {
    const messages = [
      { role: 'user', content: 'Mail me at jane.roe@gmail.com' },
      { role: 'assistant', content: 'Sure.' },
    ];
    const { blocks } = await audit([
      { task_type: 'conversation', messages },
      { task_type: 'conversation', messages, turns: 'all' },
    ]);
    expect(blocks[0]?.checks.safety?.passed).toBe(true);
    expect(blocks[1]?.checks.safety?.issues[0]?.path).toBe('/messages/0/content');
  });
});
