import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likelyRoles, unknownRoles } from './unknown-roles.ts';

const chat = (...roles: string[]) => ({
  task_type: 'conversation',
  messages: roles.map((role, i) => ({ role, content: `turn ${i}` })),
});

describe('role names that are no chat role', () => {
  it('lists them in the order first met, once each', () => {
    const samples = [chat('visitor', 'guide'), chat('visitor', 'guide', 'visitor', 'guide')];
    expect(unknownRoles(samples)).toEqual(['visitor', 'guide']);
    expect(unknownRoles([chat('system', 'user', 'assistant')])).toEqual([]);
    expect(unknownRoles([null, { task_type: 'text', text: 'no turns' }])).toEqual([]);
  });

  it('reads two unknown speakers as the user (who speaks first) and the assistant', () => {
    expect(likelyRoles([chat('visitor', 'guide')])).toEqual({
      visitor: 'user',
      guide: 'assistant',
    });
    // The first speaker decides, not the first name met in a later conversation.
    expect(likelyRoles([chat('system', 'guide', 'visitor')])).toEqual({
      guide: 'user',
      visitor: 'assistant',
    });
  });

  it('reads one unknown speaker beside one known role as the other role', () => {
    expect(likelyRoles([chat('user', 'bot')])).toEqual({ bot: 'assistant' });
    expect(likelyRoles([chat('human', 'assistant')])).toEqual({ human: 'user' });
  });

  it('proposes nothing when the turns leave more than one reading', () => {
    expect(likelyRoles([chat('a', 'b', 'c')])).toBeNull();
    expect(likelyRoles([chat('user', 'assistant', 'narrator')])).toBeNull();
    expect(likelyRoles([chat('user', 'assistant')])).toBeNull();
  });

  it('maps exactly the unknown names, each to user or assistant, when it proposes', () => {
    const role = fc.constantFrom('system', 'user', 'assistant', 'human', 'bot', 'guide', 'x');
    fc.assert(
      fc.property(fc.array(fc.array(role, { maxLength: 6 }), { maxLength: 5 }), (chats) => {
        const samples = chats.map((roles) => chat(...roles));
        const proposal = likelyRoles(samples);
        if (proposal === null) return;
        expect(Object.keys(proposal).sort()).toEqual(unknownRoles(samples).sort());
        for (const mapped of Object.values(proposal))
          expect(['user', 'assistant']).toContain(mapped);
      }),
    );
  });
});
