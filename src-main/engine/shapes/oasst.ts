import type { ChatMessage } from '../../../src-shared/schemas/sample.ts';
import { instead, isRecord, recordField, sampleOf, type Problem } from './fields.ts';
import { roleVocabulary } from './roles.ts';
import type { Row, ShapeMapper } from './types.ts';

export const OASST_ROLES = roleVocabulary({ prompter: 'user', assistant: 'assistant' });

/** The order in which the best path tries replies: by rank (0 is best), unranked ones after, in their order. */
export function replyOrder(replies: readonly unknown[]): number[] {
  const rankOf = (reply: unknown): number =>
    isRecord(reply) && typeof reply.rank === 'number' ? reply.rank : Number.POSITIVE_INFINITY;
  return replies.map((_, i) => i).sort((a, b) => rankOf(replies[a]) - rankOf(replies[b]) || a - b);
}

interface PathStep {
  node: Row;
  where: string;
  /** The index of this node among its parent's replies (-1 for the prompt). */
  index: number;
}

interface Frame extends PathStep {
  order: number[];
  tried: number;
}

/** The problem with a node (text and role strings, replies an array when present), if any. */
export function nodeProblem(node: unknown, where: string): string | undefined {
  if (!isRecord(node)) return `"${where}" must be a message object, ${instead(node)}`;
  for (const key of ['text', 'role']) {
    if (typeof node[key] !== 'string') {
      return `"${where}.${key}" must be a string, ${instead(node[key])}`;
    }
  }
  const replies = node.replies;
  if (replies !== undefined && !Array.isArray(replies)) {
    return `"${where}.replies" must be an array, ${instead(replies)}`;
  }
  return undefined;
}

export const repliesOf = (node: Row): unknown[] =>
  Array.isArray(node.replies) ? node.replies : [];

/**
 * The best path from `prompt`, or the first problem with a node it looked at.
 * A conversation for training should end with an answer, so the path is the
 * best-ranked one that ends on an assistant reply: it follows the best reply
 * that leads to an answer and stops at the last answer when the turns below
 * it are unanswered questions (39 of 100 real trees end on one along rank 0
 * alone). Only a tree without any answer gives a path ending on the prompt.
 * Depth first and iterative (a tree may be deep), visiting each node at most once.
 */
function walk(prompt: unknown): PathStep[] | string {
  const rootProblem = nodeProblem(prompt, 'prompt');
  if (rootProblem) return rootProblem;
  const frame = (node: Row, where: string, index: number): Frame => ({
    node,
    where,
    index,
    order: replyOrder(repliesOf(node)),
    tried: 0,
  });
  const stack: Frame[] = [frame(prompt as Row, 'prompt', -1)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    const next = top.order[top.tried++];
    if (next !== undefined) {
      const where = `${top.where}.replies[${next}]`;
      const child = repliesOf(top.node)[next];
      const problem = nodeProblem(child, where);
      if (problem) return problem;
      stack.push(frame(child as Row, where, next));
      continue;
    }
    // No reply below leads to an answer: the path ends here if this is one.
    if (OASST_ROLES.toRole(top.node.role as string) === 'assistant') {
      return stack.map(({ node, where, index }) => ({ node, where, index }));
    }
    stack.pop();
  }
  return [{ node: prompt as Row, where: 'prompt', index: -1 }];
}

function treeProblem(row: Row): Problem {
  const problem = recordField(row, 'prompt');
  if (problem) return problem;
  const path = walk(row.prompt);
  return typeof path === 'string' ? path : undefined;
}

/**
 * Writes the messages into a copy of the tree along the path `walk` took
 * (`route`: the reply index of each step after the prompt). A message past
 * the path's end is added as a new reply of the last node; when the sample
 * has fewer messages, the path is cut: the last kept node loses the reply the
 * path went through (its other replies, alternative branches, stay).
 */
export function writePath(
  prompt: Row,
  messages: readonly ChatMessage[],
  route: readonly number[],
): Row {
  const root = structuredClone(prompt);
  let node: Row = root;
  for (const [i, message] of messages.entries()) {
    if (i > 0) {
      const replies = Array.isArray(node.replies) ? (node.replies as unknown[]) : [];
      if (!Array.isArray(node.replies)) node.replies = replies;
      const step = route[i - 1];
      const child = step === undefined ? undefined : replies[step];
      if (isRecord(child)) node = child;
      else {
        const added: Row = {
          text: message.content,
          role: OASST_ROLES.toName(message.role, undefined),
          replies: [],
        };
        replies.push(added);
        node = added;
      }
    }
    node.text = message.content;
    node.role = OASST_ROLES.toName(message.role, node.role);
  }
  const cut = route[messages.length - 1];
  if (cut !== undefined && Array.isArray(node.replies)) node.replies.splice(cut, 1);
  return root;
}

/**
 * OpenAssistant message trees: `{message_tree_id, prompt: {text, role, replies}}`.
 * One conversation per tree, along the best-ranked path that ends with an
 * assistant reply (see `walk`), `prompter` as `user`.
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
        role: OASST_ROLES.toRole(node.role as string),
        content: node.text as string,
      })),
      turns: 'all',
    };
  },
  toRow(sample, original) {
    const { messages } = sampleOf(sample, 'conversation', oasstShape.info);
    const prompt = isRecord(original.prompt) ? original.prompt : {};
    const path = walk(prompt);
    const route = typeof path === 'string' ? [] : path.slice(1).map((step) => step.index);
    return { prompt: writePath(prompt, messages, route) };
  },
};
