import type { Sample } from '../src-shared/schemas/sample.ts';
import {
  commonsenseQa,
  ftfyCases,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../src-main/engine/testing/real-data.ts';

/** The real samples the engine benches read, per task type (the shipped datasets). */
export const CORPORA: Record<Sample['task_type'], () => Sample[]> = {
  text: () => [
    ...oasst().flatMap((c) =>
      c.messages.map((m) => ({ task_type: 'text' as const, text: m.content })),
    ),
    ...ftfyCases().wild.map((c) => ({ task_type: 'text' as const, text: c.original })),
  ],
  multiple_choice: () => [...hellaswag(), ...truthfulQa(), ...commonsenseQa()],
  question_answer: () => gsm8k(),
  conversation: () => oasst(),
};

/**
 * `count` samples from `base`, each copy made distinct (a tag on its main
 * text) so that no cache can flatter the figures; `round` tags another set.
 */
export function replicate(base: Sample[], count: number, round = 0): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const sample = structuredClone(base[i % base.length] as Sample);
    const tag = round === 0 ? ` (copy ${i})` : ` (copy ${i}, round ${round + 1})`;
    switch (sample.task_type) {
      case 'text':
        sample.text += tag;
        break;
      case 'multiple_choice':
        sample.context += tag;
        break;
      case 'question_answer':
        sample.question += tag;
        break;
      case 'conversation': {
        const first = sample.messages[0];
        if (first) first.content += tag;
        break;
      }
    }
    out.push(sample);
  }
  return out;
}
