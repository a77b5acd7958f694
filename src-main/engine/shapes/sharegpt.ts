import type { ChatMessage } from '../../../src-shared/schemas/sample.ts';
import { instead, isRecord, objectListField, sampleOf, type Problem } from './fields.ts';
import { roleVocabulary } from './roles.ts';
import type { Row, ShapeMapper } from './types.ts';

const ROLES = roleVocabulary({ human: 'user', gpt: 'assistant', system: 'system' });

function turnProblem(turn: Row, where: string): Problem {
  for (const key of ['from', 'value']) {
    if (typeof turn[key] !== 'string') {
      return `"${where}.${key}" must be a string, ${instead(turn[key])}`;
    }
  }
  return undefined;
}

/**
 * ShareGPT: `{conversations: [{from, value}]}`, `human`/`gpt`/`system`.
 * Written back turn by turn: turn i keeps its other keys and its `from` when
 * the role is unchanged; turns the sample adds are appended, turns it drops
 * are cut from the end.
 */
export const sharegptShape: ShapeMapper = {
  info: {
    id: 'sharegpt',
    label: 'ShareGPT',
    taskType: 'conversation',
    description: 'conversations [{from: human|gpt|system, value}], read whole.',
  },
  owns: ['conversations'],
  check: (row) => objectListField(row, 'conversations', turnProblem),
  toSample: (row) => ({
    task_type: 'conversation',
    messages: (row.conversations as Row[]).map((turn): ChatMessage => ({
      role: ROLES.toRole(turn.from as string),
      content: turn.value as string,
    })),
    turns: 'all',
  }),
  toRow(sample, original) {
    const { messages } = sampleOf(sample, 'conversation', sharegptShape.info);
    const turns = Array.isArray(original.conversations)
      ? (original.conversations as unknown[])
      : [];
    return {
      conversations: messages.map((message, i) => {
        const turn = turns[i];
        const old = isRecord(turn) ? turn : {};
        return { ...old, from: ROLES.toName(message.role, old.from), value: message.content };
      }),
    };
  },
};
