import type { Sample } from '../../../../src-shared/schemas/sample.ts';
import { prng } from '../prng.ts';

/**
 * Duplicates injected into real data, for the tests and the bench: each kind
 * of copy the `duplicates` check must find, with where it came from, so that
 * precision and recall can be counted.
 */

/** Every way a copy is made, from the plainest (an exact copy) to the most changed. */
export const INJECTED_KINDS = [
  'exact',
  'case',
  'whitespace',
  'punctuation',
  'one_word',
  'two_words',
  'choices_reordered',
] as const;

export type InjectedKind = (typeof INJECTED_KINDS)[number];

export interface Injected {
  /** The copy's position in the result. */
  row: number;
  /** The position of the sample it copies. */
  of: number;
  kind: InjectedKind;
}

const REPLACEMENTS = ['purple', 'seventeen', 'quietly', 'harbor', 'lantern', 'gravel', 'ember'];

/** The main text of a sample, and a copy with that text replaced. */
function mainText(sample: Sample): string {
  switch (sample.task_type) {
    case 'text':
      return sample.text;
    case 'multiple_choice':
      return sample.context;
    case 'question_answer':
      return sample.question;
    case 'conversation':
      return sample.messages.map((m) => m.content).join('\n');
  }
}

function withMainText(sample: Sample, text: string): Sample {
  switch (sample.task_type) {
    case 'text':
      return { ...sample, text };
    case 'multiple_choice':
      return { ...sample, context: text };
    case 'question_answer':
      return { ...sample, question: text };
    case 'conversation':
      return {
        ...sample,
        messages: sample.messages.map((m, i) => (i === 0 ? { ...m, content: text } : m)),
      };
  }
}

/** Replaces `count` distinct words (far from each other where the text allows) with other words. */
function changeWords(text: string, count: number, random: () => number): string {
  const words = text.split(' ');
  const picked = new Set<number>();
  while (picked.size < Math.min(count, words.length)) {
    picked.add(Math.floor(random() * words.length));
  }
  for (const at of picked) {
    words[at] = REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)] as string;
  }
  return words.join(' ');
}

function copyOf(sample: Sample, kind: InjectedKind, random: () => number): Sample | null {
  const text = mainText(sample);
  switch (kind) {
    case 'exact':
      return structuredClone(sample);
    case 'case':
      return withMainText(sample, text.toUpperCase());
    case 'whitespace':
      return withMainText(sample, `  ${text.replace(/ /g, '  ')}\n`);
    case 'punctuation':
      return withMainText(sample, text.replace(/[.,?!;:]/g, '').replace(/ /g, ', '));
    case 'one_word':
    case 'two_words':
      if (sample.task_type === 'conversation') return null;
      if (text.split(' ').length < 40) return null;
      return withMainText(sample, changeWords(text, kind === 'one_word' ? 1 : 2, random));
    case 'choices_reordered': {
      if (sample.task_type !== 'multiple_choice' || sample.choices.length < 2) return null;
      const order = sample.choices.map((_, i) => i).sort(() => random() - 0.5);
      if (order.every((from, to) => from === to)) order.reverse();
      return {
        ...sample,
        choices: order.map((from) => sample.choices[from] as string),
        answer_index: order.indexOf(sample.answer_index),
      };
    }
  }
}

/**
 * The samples with copies of some of them inserted at random later places.
 * `kinds` are tried in turn; a kind that does not apply to a sample (two
 * changed words in a short text) moves on to the next source sample.
 */
export function injectDuplicates(
  samples: readonly Sample[],
  copies: number,
  kinds: readonly InjectedKind[],
  seed = 7,
): { samples: Sample[]; injected: Injected[] } {
  const random = prng(seed);
  const planned: { after: number; of: number; copy: Sample; kind: InjectedKind }[] = [];
  let tries = 0;
  while (planned.length < copies && tries < copies * 50) {
    tries++;
    const of = Math.floor(random() * samples.length);
    const kind = kinds[planned.length % kinds.length] as InjectedKind;
    if (planned.some((p) => p.of === of)) continue;
    const copy = copyOf(samples[of] as Sample, kind, random);
    if (copy === null) continue;
    const after = of + Math.floor(random() * (samples.length - of));
    planned.push({ after, of, copy, kind });
  }
  // Lay out: each original at its place, copies right after the sample they follow.
  const out: Sample[] = [];
  const positionOf = new Map<number, number>();
  const injected: Injected[] = [];
  const byAfter = new Map<number, typeof planned>();
  for (const p of planned) byAfter.set(p.after, [...(byAfter.get(p.after) ?? []), p]);
  samples.forEach((sample, i) => {
    positionOf.set(i, out.length);
    out.push(sample);
    for (const p of byAfter.get(i) ?? []) {
      injected.push({ row: out.length, of: positionOf.get(p.of) as number, kind: p.kind });
      out.push(p.copy);
    }
  });
  return { samples: out, injected };
}
