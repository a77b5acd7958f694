import { instead, misfit, sampleOf, stringField, type Problem } from './fields.ts';
import type { Row, ShapeMapper } from './types.ts';

const SEPARATOR = '\n\n';

function inputProblem(row: Row): Problem {
  const input = row.input;
  return input === undefined || input === null || typeof input === 'string'
    ? undefined
    : `"input" must be a string, ${instead(input)}`;
}

function inputOf(row: Row): string {
  return typeof row.input === 'string' ? row.input : '';
}

/** The user turn: the instruction, plus a blank line and the input when there is one. */
export function composePrompt(instruction: string, input: string): string {
  return input.trim() === '' ? instruction : instruction + SEPARATOR + input;
}

/**
 * `instruction`/`input` for a (possibly fixed) user turn. Rules, in order:
 * 1. the turn is what the row composes to: both stay as they are;
 * 2. the row had no input: the whole turn is the instruction;
 * 3. the turn still ends with a blank line and the original input: only the
 *    instruction changed, and it is everything before;
 * 4. the turn still starts with the original instruction and a blank line:
 *    only the input changed, and it is everything after;
 * 5. both changed: the turn is split at the blank line that follows as many
 *    blank lines as the original instruction held (the first one, usually; the
 *    last one when there are fewer); with no blank line at all the whole turn
 *    is the instruction and the input is emptied (e.g. a fix that dropped a
 *    "No input" placeholder).
 */
export function splitPrompt(original: Row, prompt: string): Row {
  const instruction = typeof original.instruction === 'string' ? original.instruction : '';
  const input = inputOf(original);
  if (prompt === composePrompt(instruction, input)) return {};
  if (input.trim() === '') return { instruction: prompt };
  if (prompt.endsWith(SEPARATOR + input)) {
    return { instruction: prompt.slice(0, prompt.length - SEPARATOR.length - input.length) };
  }
  if (prompt.startsWith(instruction + SEPARATOR)) {
    return { input: prompt.slice(instruction.length + SEPARATOR.length) };
  }
  let at = -1;
  for (let skip = instruction.split(SEPARATOR).length - 1; skip >= 0; skip--) {
    const next = prompt.indexOf(SEPARATOR, at < 0 ? 0 : at + SEPARATOR.length);
    if (next < 0) break;
    at = next;
  }
  return at < 0
    ? { instruction: prompt, input: '' }
    : { instruction: prompt.slice(0, at), input: prompt.slice(at + SEPARATOR.length) };
}

/** Alpaca: `{instruction, input, output}` as a two-turn conversation, read whole. */
export const alpacaShape: ShapeMapper = {
  info: {
    id: 'alpaca',
    label: 'Alpaca',
    taskType: 'conversation',
    description: 'instruction (+ input) as the user turn and output as the assistant turn.',
  },
  owns: ['instruction', 'input', 'output'],
  check: (row) =>
    stringField(row, 'instruction') ?? inputProblem(row) ?? stringField(row, 'output'),
  toSample: (row) => ({
    task_type: 'conversation',
    messages: [
      { role: 'user', content: composePrompt(row.instruction as string, inputOf(row)) },
      { role: 'assistant', content: row.output as string },
    ],
    turns: 'all',
  }),
  toRow(sample, original) {
    const { messages } = sampleOf(sample, 'conversation', alpacaShape.info);
    if (messages.length > 2) {
      throw misfit(
        alpacaShape.info,
        `an Alpaca row holds one prompt and one response, not ${messages.length} messages`,
      );
    }
    return {
      ...splitPrompt(original, messages[0]?.content ?? ''),
      output: messages[1]?.content ?? '',
    };
  },
};
