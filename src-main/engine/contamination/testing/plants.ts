import type { Sample } from '../../../../src-shared/schemas/sample.ts';
import { prng } from '../../dataset/prng.ts';
import type { EvalItem } from '../build.ts';

/**
 * Evaluation items planted into real training rows, the ways a copy reaches
 * training data: verbatim as a question and its answer; re-cased and
 * re-spaced; split over the turns of a conversation; embedded in a longer
 * answer; the question alone. The tests and the bench measure recall on
 * them (and false alarms on the hosts left as they are).
 */

export const PLANT_KINDS = ['verbatim', 'recased', 'turns', 'embedded', 'question'] as const;
export type PlantKind = (typeof PLANT_KINDS)[number];

/** A training row to plant into: an instruction and its response. */
export interface Host {
  instruction: string;
  response: string;
}

/** A planted sample, and what it holds. */
export interface Plant {
  kind: PlantKind;
  item: number;
  sample: Sample;
}

/** Changes case word by word and spacing between words, as a careless copy does. */
function recase(text: string, random: () => number): string {
  return text
    .split(/(\s+)/)
    .map((part) => {
      if (/^\s+$/.test(part)) return random() < 0.3 ? ' \n ' : '  ';
      const r = random();
      return r < 0.3 ? part.toUpperCase() : r < 0.6 ? part.toLowerCase() : part;
    })
    .join('');
}

/** Drops sentence punctuation (not a number's point), as a re-punctuated copy does. */
const repunctuate = (text: string): string => text.replace(/[.,?!;:](?=\s|$)/g, '');

export function plant(
  kind: PlantKind,
  item: EvalItem,
  index: number,
  host: Host,
  random: () => number,
): Plant {
  const answer = item.answer ?? '';
  const sample = ((): Sample => {
    switch (kind) {
      case 'verbatim':
        return { task_type: 'question_answer', question: item.question, answer };
      case 'recased':
        return {
          task_type: 'text',
          text: `${recase(repunctuate(item.question), random)}\n\n${recase(answer, random)}`,
        };
      case 'turns':
        return {
          task_type: 'conversation',
          messages: [
            { role: 'user', content: item.question },
            { role: 'assistant', content: answer },
          ],
        };
      case 'embedded':
        return {
          task_type: 'conversation',
          messages: [
            { role: 'user', content: host.instruction },
            {
              role: 'assistant',
              content: `${host.response}\n\nFor example: ${item.question}\n${answer}\n\nThat is all.`,
            },
          ],
        };
      case 'question':
        return { task_type: 'question_answer', question: item.question, answer: host.response };
    }
  })();
  return { kind, item: index, sample };
}

/** `count` items of `items` drawn without replacement (seeded), each planted every way. */
export function plantAll(
  items: readonly EvalItem[],
  hosts: readonly Host[],
  count: number,
  seed = 1,
): Plant[] {
  const random = prng(seed);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) {
    chosen.add(Math.floor(random() * items.length));
  }
  const plants: Plant[] = [];
  let h = 0;
  for (const index of chosen) {
    const item = items[index] as EvalItem;
    for (const kind of PLANT_KINDS) {
      plants.push(plant(kind, item, index, hosts[h++ % hosts.length] as Host, random));
    }
  }
  return plants;
}
