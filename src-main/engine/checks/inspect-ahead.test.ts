import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { NO_CONVENTIONS, parseConventions } from '../conventions.ts';
import type { TextRule } from '../text/rule.ts';
import { TEXT_RULES } from '../text/rules/index.ts';
import { commonsenseQa, gsm8k, hellaswag, oasst, truthfulQa } from '../testing/real-data.ts';
import { inspectedFields, runChecks } from './index.ts';
import { inspectAhead } from './text-fields.ts';

/** Every rule's `detect`, counted (and put back after each test). */
const originals = new Map<TextRule, TextRule['detect']>();
let detections = 0;
function countDetections(): void {
  for (const rule of TEXT_RULES) {
    const detect = rule.detect;
    originals.set(rule, detect);
    (rule as { detect: TextRule['detect'] }).detect = (text, context) => {
      detections++;
      return detect(text, context);
    };
  }
}
afterEach(() => {
  for (const [rule, detect] of originals) (rule as { detect: TextRule['detect'] }).detect = detect;
  originals.clear();
});

const samples = (): Sample[] => [
  ...gsm8k().slice(0, 20),
  ...hellaswag().slice(0, 20),
  ...truthfulQa().slice(0, 20),
  ...commonsenseQa().slice(0, 20),
  ...oasst().slice(0, 20),
  ...oasst()
    .slice(20, 40)
    .map((s) => ({ ...s, turns: 'all' as const })),
  ...oasst()
    .slice(0, 20)
    .flatMap((c) => c.messages.map((m) => ({ task_type: 'text' as const, text: m.content }))),
  // Empty turns and fields, which the checks skip or judge without the rules.
  {
    task_type: 'conversation',
    turns: 'all',
    messages: [
      { role: 'user', content: '  ' },
      { role: 'assistant', content: 'An answer.' },
    ],
  },
  { task_type: 'question_answer', question: '', answer: '4' },
];

describe('inspectAhead', () => {
  it('finds in advance everything the checks ask the text rules, so they detect nothing again', () => {
    const all = samples();
    countDetections();
    for (const conventions of [NO_CONVENTIONS, parseConventions('Whitespace is fine.')]) {
      for (let i = 0; i < all.length; i += 64) {
        const batch = all.slice(i, i + 64);
        inspectAhead(batch.flatMap(inspectedFields), conventions);
        detections = 0;
        for (const sample of batch) runChecks(sample, conventions);
        expect(detections, `samples ${i} to ${i + batch.length - 1}`).toBe(0);
      }
    }
  });

  it('changes no verdict', () => {
    const all = samples();
    // Distinct texts, so that nothing found above serves the checks below.
    const fresh = (tag: string): Sample[] =>
      all.map((s) => (s.task_type === 'text' ? { ...s, text: `${s.text} ${tag}` } : s));
    const plain = fresh('(plain)').map((s) => runChecks(s, NO_CONVENTIONS));
    const ahead = fresh('(ahead)');
    inspectAhead(ahead.flatMap(inspectedFields), NO_CONVENTIONS);
    const withAhead = ahead.map((s) => runChecks(s, NO_CONVENTIONS));
    expect(JSON.stringify(withAhead).replaceAll('(ahead)', '(plain)')).toBe(JSON.stringify(plain));
  });
});
