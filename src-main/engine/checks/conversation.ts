import { CONVERSATION_CHECKS } from '../../../src-shared/checks.ts';
import { CHAT_ROLES } from '../../../src-shared/schemas/sample-kinds.ts';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import type { Conventions } from '../conventions.ts';
import { CheckSet } from './check-set.ts';
import { standDownNote } from '../text/instruction.ts';
import { restatesPrompt } from '../text/rules/placeholders.ts';
import { inspectText } from './text-fields.ts';
import type { SampleVerdicts } from './types.ts';

/** The indices of the turns the models read: the last one, or all with `turns: "all"`. */
export function turnsRead(sample: ConversationSample): number[] {
  const all = sample.messages.map((_, i) => i);
  return sample.turns === 'all' ? all : all.slice(-1);
}

/** The user turn an assistant turn answers: what the reply was asked for. */
export function instructionBefore(
  messages: ConversationSample['messages'],
  i: number,
): string | undefined {
  const prompt = messages[i - 1];
  return messages[i]?.role === 'assistant' && prompt?.role === 'user' ? prompt.content : undefined;
}

const isRole = (role: string): boolean => (CHAT_ROLES as readonly string[]).includes(role);

export function checkConversation(
  sample: ConversationSample,
  conventions: Conventions,
): SampleVerdicts {
  const checks = new CheckSet(CONVERSATION_CHECKS, conventions);
  const { messages } = sample;
  messages.forEach((message, i) => {
    if (!isRole(message.role)) {
      checks.add('roles', {
        code: 'invalid_role',
        message: `role "${message.role}" is not system, user or assistant`,
        path: `/messages/${i}/role`,
        severity: 'error',
      });
    } else if (message.role === 'system' && i > 0) {
      checks.add('roles', {
        code: 'system_not_first',
        message: 'a system message after the conversation started',
        path: `/messages/${i}/role`,
        severity: 'error',
      });
    }
    if (message.content.trim() === '') {
      checks.add('empty_turns', {
        code: 'empty_turn',
        message: `turn ${i} (${message.role}) is empty`,
        path: `/messages/${i}/content`,
        severity: 'error',
      });
    }
    const previous = messages[i - 1];
    if (previous && previous.role === message.role && message.role !== 'system') {
      checks.add('alternation', {
        code: 'consecutive_roles',
        message: `turns ${i - 1} and ${i} are both ${message.role}`,
        path: `/messages/${i}`,
        severity: 'error',
      });
    }
  });
  // A system prompt alone is not a conversation to train on (other roles are judged above).
  if (messages.every((m) => m.role === 'system')) {
    checks.add('alternation', {
      code: 'no_dialogue',
      message: 'the conversation has no user or assistant turn',
      path: '/messages',
      severity: 'error',
    });
  }
  const last = messages.at(-1);
  if (last?.role === 'user') {
    checks.add('alternation', {
      code: 'ends_with_user',
      message: 'the conversation ends with an unanswered user turn',
      path: `/messages/${messages.length - 1}`,
      severity: 'warning',
    });
  }
  for (const i of turnsRead(sample)) {
    const content = messages[i]?.content ?? '';
    if (content.trim() === '') continue; // reported by empty_turns
    const role = messages[i]?.role;
    for (const hit of inspectText(content, `/messages/${i}/content`, {
      freeText: true,
      conventions,
      ...(role !== undefined ? { role } : {}),
      instruction: instructionBefore(messages, i),
    })) {
      checks.add(hit.rule.dimension, hit.issue, hit.count);
    }
    // An answer that only says its question again (Alpaca outputs echoing the instruction).
    const prompt = messages[i - 1];
    if (
      role === 'assistant' &&
      prompt?.role === 'user' &&
      !conventions.off.has('restates_prompt') &&
      restatesPrompt(prompt.content, content)
    ) {
      const message = 'the answer only restates the user turn before it';
      const note = standDownNote('restates_prompt', prompt.content, content);
      checks.add('coherence', {
        code: 'restates_prompt',
        message: note === null ? message : `${message}; ${note}`,
        path: `/messages/${i}/content`,
        severity: note === null ? 'error' : 'warning',
      });
    }
  }
  return { checks: checks.verdicts() };
}
