import type { ChatMessage } from '../../../src-shared/schemas/sample.ts';
import { describe, isRecord, recordField, sampleOf, type Problem } from './fields.ts';
import { roleVocabulary } from './roles.ts';
import type { Row, ShapeMapper } from './types.ts';

const ROLES = roleVocabulary({ prompter: 'user', assistant: 'assistant' });

/** The reply the best path follows: the one ranked 0, else the first. */
function bestReply(replies: readonly unknown[]): number {
  const ranked = replies.findIndex((reply) => isRecord(reply) && reply.rank === 0);
  return ranked >= 0 ? ranked : 0;
}

interface PathStep {
  node: Row;
  where: string;
}

/**
 * Walks the best path from `prompt`: the nodes, or the first problem with a
 * node on it (text and role strings, replies an array when present).
 */
function walk(prompt: unknown): PathStep[] | string {
  const path: PathStep[] = [];
  let node = prompt;
  let where = 'prompt';
  for (;;) {
    if (!isRecord(node)) return `"${where}" must be a message object, not ${describe(node)}`;
    for (const key of ['text', 'role']) {
      if (typeof node[key] !== 'string') {
        return `"${where}.${key}" must be a string, not ${describe(node[key])}`;
      }
    }
    path.push({ node, where });
    const replies = node.replies;
    if (replies === undefined) return path;
    if (!Array.isArray(replies)) {
      return `"${where}.replies" must be an array, not ${describe(replies)}`;
    }
    if (replies.length === 0) return path;
    const next = bestReply(replies);
    node = replies[next];
    where = `${where}.replies[${next}]`;
  }
}

function treeProblem(row: Row): Problem {
  const problem = recordField(row, 'prompt');
  if (problem) return problem;
  const path = walk(row.prompt);
  return typeof path === 'string' ? path : undefined;
}

/**
 * Writes the messages into a copy of the tree along the best path. A message
 * past the path's end is added as the only reply of the last node (so the path
 * reaches it again); when the sample has fewer messages, the path is cut: the
 * last kept node loses the reply the path went through (its other replies,
 * alternative branches, stay).
 */
function writePath(prompt: Row, messages: readonly ChatMessage[]): Row {
  const root = structuredClone(prompt);
  let node: Row = root;
  for (const [i, message] of messages.entries()) {
    if (i > 0) {
      const replies = Array.isArray(node.replies) ? (node.replies as unknown[]) : [];
      if (!Array.isArray(node.replies)) node.replies = replies;
      const next = replies.length > 0 ? bestReply(replies) : -1;
      const child = next >= 0 ? replies[next] : undefined;
      if (isRecord(child)) node = child;
      else {
        const added: Row = {
          text: message.content,
          role: ROLES.toName(message.role, undefined),
          replies: [],
        };
        replies.push(added);
        node = added;
      }
    }
    node.text = message.content;
    node.role = ROLES.toName(message.role, node.role);
  }
  const replies = node.replies;
  if (Array.isArray(replies) && replies.length > 0) replies.splice(bestReply(replies), 1);
  return root;
}

/**
 * OpenAssistant message trees: `{message_tree_id, prompt: {text, role, replies}}`.
 * One conversation per tree, along the best-ranked path (rank 0, else the
 * first reply), `prompter` as `user`.
 */
export const oasstShape: ShapeMapper = {
  info: {
    id: 'oasst',
    label: 'OpenAssistant trees',
    taskType: 'conversation',
    description: 'One conversation per message tree, along the best-ranked replies.',
  },
  owns: ['prompt'],
  check: treeProblem,
  toSample(row) {
    const path = walk(row.prompt) as PathStep[];
    return {
      task_type: 'conversation',
      messages: path.map(({ node }): ChatMessage => ({
        role: ROLES.toRole(node.role as string),
        content: node.text as string,
      })),
      turns: 'all',
    };
  },
  toRow(sample, original) {
    const { messages } = sampleOf(sample, 'conversation', oasstShape.info);
    return { prompt: writePath(isRecord(original.prompt) ? original.prompt : {}, messages) };
  },
};
