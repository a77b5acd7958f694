import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { buildFingerprints, type EvalItem } from './build.ts';
import { ContaminationMatcher } from './match.ts';
import { ContaminationScan, contaminationVerdict } from './scan.ts';

/** Twelve distinct word problems, as a benchmark's test items. */
const ITEMS: EvalItem[] = Array.from({ length: 12 }, (_, i) => ({
  question:
    `Tom has ${i + 3} boxes of ${['apples', 'pears', 'plums', 'figs'][i % 4]} and each box holds ` +
    `${(i + 2) * 7} pieces of fruit from the orchard of his uncle ${['Sam', 'Lee', 'Ray'][i % 3]} near the river ` +
    `${i}. How many pieces does he have in all after ${i + 1} days?`,
  answer: `He has ${i + 3} * ${(i + 2) * 7} = ${(i + 3) * (i + 2) * 7} pieces.\n#### ${(i + 3) * (i + 2) * 7}`,
}));

const sets = buildFingerprints([{ name: 'gsm8k/test', items: ITEMS }]);
const own = buildFingerprints([
  {
    name: 'my_eval.jsonl',
    items: [
      {
        question:
          'Summarize the quarterly sales report of the northern region for the board in three short bullet points.',
      },
    ],
  },
]);
const matcher = new ContaminationMatcher([...sets, ...own]);

const qa = (item: EvalItem): Sample => ({
  task_type: 'question_answer',
  question: item.question,
  answer: item.answer ?? '',
});
const clean = (i: number): Sample => ({
  task_type: 'text',
  text: `Row ${i}: an ordinary training sentence about gardening, weather and cooking number ${i}.`,
});

describe('ContaminationScan', () => {
  it('fails rows holding a benchmark item, naming it, and counts them in a finding', () => {
    const scan = new ContaminationScan(matcher);
    const rows = [clean(0), qa(ITEMS[4]!), clean(1), clean(2), qa(ITEMS[4]!), clean(3)];
    rows.forEach((row) => scan.add(row));
    const { issues, findings, active } = scan.finish();
    expect(active).toBe(true);
    expect([...issues.keys()]).toEqual([1, 4]);
    expect(issues.get(1)).toEqual([
      expect.objectContaining({
        code: 'benchmark_overlap',
        severity: 'error',
        benchmark: 'gsm8k/test',
        benchmark_item: 4,
        similarity: 1,
        path: '/question',
      }),
    ]);
    expect(contaminationVerdict(issues.get(1)).passed).toBe(false);
    expect(contaminationVerdict(issues.get(0))).toEqual({ passed: true, score: 1, issues: [] });
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'benchmark_contamination',
        rows: 2,
        benchmarks: [{ benchmark: 'gsm8k/test', kind: 'benchmark', rows: 2, items: 1 }],
      }),
    ]);
  });

  it('says split_overlap for a row of the user’s own evaluation set', () => {
    const scan = new ContaminationScan(matcher);
    scan.add({
      task_type: 'conversation',
      messages: [
        {
          role: 'user',
          content:
            'summarize the quarterly sales report of the northern region for the board, in three short bullet points',
        },
        { role: 'assistant', content: 'Sales grew.' },
      ],
    });
    expect(scan.finish().issues.get(0)).toEqual([
      expect.objectContaining({
        code: 'split_overlap',
        benchmark: 'my_eval.jsonl',
        benchmark_item: 0,
        severity: 'error',
        // The message numbers the row from 1, as the grid does: the first row is row 1.
        message: expect.stringContaining(
          'holds row 1 of the evaluation set my_eval.jsonl',
        ) as unknown,
      }),
    ]);
  });

  it('warns on a partial overlap', () => {
    const item = ITEMS[7]!;
    const half = item.question.split(' ').slice(0, 22).join(' ');
    const scan = new ContaminationScan(matcher);
    scan.add({
      task_type: 'text',
      text: `${half} and then something else entirely happened to him.`,
    });
    for (let i = 0; i < 10; i++) scan.add(clean(i));
    const [issue] = scan.finish().issues.get(0)!;
    expect(issue).toMatchObject({
      code: 'benchmark_overlap',
      severity: 'warning',
      benchmark_item: 7,
    });
    expect(issue!.similarity).toBeLessThan(0.5);
  });

  it('reads a run made mostly of one benchmark as that benchmark: its rows warn, a finding says so', () => {
    const scan = new ContaminationScan(matcher);
    ITEMS.forEach((item) => scan.add(qa(item)));
    scan.add(clean(0));
    const { issues, findings } = scan.finish();
    expect(issues.size).toBe(12);
    for (const found of issues.values()) {
      expect(found[0]).toMatchObject({ severity: 'warning', benchmark: 'gsm8k/test' });
      expect(found[0]!.message).toMatch(/warns only: the run is GSM8K test itself/);
    }
    expect(findings.map((f) => f.code)).toEqual(['benchmark_contamination', 'benchmark_dataset']);
    expect(findings[1]).toMatchObject({ benchmark: 'gsm8k/test', rows: 12 });
  });

  it('is off without a matcher: no issues, not active', () => {
    const scan = new ContaminationScan(null);
    scan.add(qa(ITEMS[0]!));
    expect(scan.finish()).toEqual({ active: false, issues: new Map(), findings: [] });
  });
});
