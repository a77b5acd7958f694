import { CHAT_ROLES } from '../../../src-shared/schemas/sample.ts';

/**
 * The role names of a file's turns that are none of the chat roles, read from
 * the preview's mapped samples: a file whose speakers are `visitor` and
 * `guide` imports, but every one of its turns then fails the `roles` check.
 * Said at the mapping step, with the mapping that names them when the turns
 * make it plain which is which.
 */

type Sample = Record<string, unknown>;
type ChatRole = (typeof CHAT_ROLES)[number];

const isChatRole = (role: string): role is ChatRole =>
  (CHAT_ROLES as readonly string[]).includes(role);

/** Each conversation's roles in turn order (samples that are no conversation give none). */
function roleSequences(samples: readonly (Sample | null)[]): string[][] {
  return samples.map((sample) =>
    Array.isArray(sample?.messages)
      ? (sample.messages as unknown[]).map((message) =>
          typeof message === 'object' && message !== null && 'role' in message
            ? String(message.role)
            : '',
        )
      : [],
  );
}

/** The role names that are no chat role, in the order first met. */
export function unknownRoles(samples: readonly (Sample | null)[]): string[] {
  const unknown = new Set<string>();
  for (const roles of roleSequences(samples)) {
    for (const role of roles) if (!isChatRole(role)) unknown.add(role);
  }
  return [...unknown];
}

/**
 * What the unknown names most likely stand for, when the turns leave one
 * reading: two unknown names and no user or assistant turn (the one who
 * speaks first is the user), or one unknown name beside turns of only one of
 * user and assistant (it is the other). Null when it is not that plain.
 */
export function likelyRoles(samples: readonly (Sample | null)[]): Record<string, ChatRole> | null {
  const unknown = unknownRoles(samples);
  const sequences = roleSequences(samples);
  const speaking = new Set(
    sequences.flat().filter((role) => role === 'user' || role === 'assistant'),
  );
  if (unknown.length === 2 && speaking.size === 0) {
    const first = sequences.map((roles) => roles.find((role) => role !== 'system')).find(Boolean);
    const [a, b] = unknown as [string, string];
    return first === b ? { [b]: 'user', [a]: 'assistant' } : { [a]: 'user', [b]: 'assistant' };
  }
  if (unknown.length === 1 && speaking.size === 1) {
    const [name] = unknown as [string];
    return { [name]: speaking.has('user') ? 'assistant' : 'user' };
  }
  return null;
}
