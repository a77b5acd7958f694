import type { Sample } from '../../../src-shared/schemas/sample.ts';

/**
 * What the grid shows of a sample, one line each: the main text (the text,
 * the stem, the question, the last user turn) and a secondary one (the
 * choices with the labelled one marked, the answer, the roles). A search
 * looks in every field of the row instead (store/search-text.ts).
 */

export const TITLE_MAX = 300;
export const DETAIL_MAX = 300;
const HEAD_MAX = 2000;

export interface GridText {
  title: string;
  detail: string;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** At most `max` UTF-16 units, never splitting a surrogate pair, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

function parts(sample: Sample): { main: string; secondary: string } {
  switch (sample.task_type) {
    case 'text':
      return { main: sample.text, secondary: '' };
    case 'multiple_choice':
      return {
        main: sample.context,
        secondary: sample.choices
          .map((choice, i) => (i === sample.answer_index ? `✓ ${choice}` : choice))
          .join(' | '),
      };
    case 'question_answer':
      return { main: sample.question, secondary: sample.answer };
    case 'conversation': {
      const lastUser = sample.messages.findLast((m) => m.role === 'user');
      const main = (lastUser ?? sample.messages.at(-1))?.content ?? '';
      return { main, secondary: sample.messages.map((m) => m.role).join(' → ') };
    }
  }
}

export function gridText(sample: Sample): GridText {
  const { main, secondary } = parts(sample);
  // Only the head of a long text is ever shown: never normalise the rest. (A head of
  // whitespace runs still fills the title once they are folded.)
  const title = clip(oneLine(main.slice(0, HEAD_MAX)), TITLE_MAX);
  const detail = clip(oneLine(secondary.slice(0, 2 * DETAIL_MAX)), DETAIL_MAX);
  return { title, detail };
}
