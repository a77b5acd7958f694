import type { ChatMessage } from '../../../src-shared/schemas/sample.ts';
import { instead, isRecord, objectListField, sampleOf, type Problem } from './fields.ts';
import type { Row, ShapeMapper } from './types.ts';

/** Text parts are joined with a newline into the message's content. */
const PART_JOINER = '\n';

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  return isRecord(part) && part.type === 'text' && typeof part.text === 'string';
}

function contentProblem(content: unknown, where: string): Problem {
  if (content === null || typeof content === 'string') return undefined;
  if (!Array.isArray(content)) {
    return `"${where}.content" must be a string or an array of parts, ${instead(content)}`;
  }
  for (const [i, part] of content.entries()) {
    if (!isRecord(part) || typeof part.type !== 'string') {
      return `"${where}.content[${i}]" must be a part with a "type"`;
    }
    if (part.type === 'text' && typeof part.text !== 'string') {
      return `"${where}.content[${i}].text" must be a string, ${instead(part.text)}`;
    }
  }
  return undefined;
}

/** The content as text: a string as it is, `null` as empty, text parts joined (other parts skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isTextPart)
    .map((part) => part.text)
    .join(PART_JOINER);
}

/**
 * Content for a new text, in the original's form: unchanged text keeps the
 * original content; a string or `null` becomes the new string; parts keep
 * their non-text parts in place, the first text part takes the whole text
 * and the other text parts are dropped (one is appended if there was none).
 */
export function contentFor(original: unknown, text: string): unknown {
  if (original !== undefined && contentText(original) === text) return original;
  if (!Array.isArray(original)) return text;
  const parts: unknown[] = [];
  let placed = false;
  for (const part of original) {
    if (!isTextPart(part)) parts.push(part);
    else if (!placed) {
      parts.push({ ...part, text });
      placed = true;
    }
  }
  if (!placed) parts.push({ type: 'text', text });
  return parts;
}

function messageProblem(message: Row, where: string): Problem {
  if (typeof message.role !== 'string') {
    return `"${where}.role" must be a string, ${instead(message.role)}`;
  }
  if (!Object.hasOwn(message, 'content')) return `"${where}.content" is missing`;
  return contentProblem(message.content, where);
}

/**
 * OpenAI chat: `{messages: [{role, content}]}`, content a string, text parts
 * or `null` (read as empty). Written back message by message: message i keeps
 * its other keys (`name`, `weight`, ...); messages the sample adds are
 * appended, messages it drops are cut from the end.
 */
export const openaiChatShape: ShapeMapper = {
  info: {
    id: 'openai_chat',
    label: 'OpenAI chat',
    taskType: 'conversation',
    description: 'messages [{role, content}] as in OpenAI chat fine-tuning files, read whole.',
  },
  owns: ['messages'],
  check: (row) => objectListField(row, 'messages', messageProblem),
  toSample: (row) => ({
    task_type: 'conversation',
    messages: (row.messages as Row[]).map((message): ChatMessage => ({
      role: message.role as string,
      content: contentText(message.content),
    })),
    turns: 'all',
  }),
  toRow(sample, original) {
    const { messages } = sampleOf(sample, 'conversation', openaiChatShape.info);
    const olds = Array.isArray(original.messages) ? (original.messages as unknown[]) : [];
    return {
      messages: messages.map((message, i) => {
        const item = olds[i];
        const old = isRecord(item) ? item : {};
        return { ...old, role: message.role, content: contentFor(old.content, message.content) };
      }),
    };
  },
};
