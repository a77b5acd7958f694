import type { EvalItem } from './build.ts';

/**
 * The public benchmarks whose fingerprints ship with the app: where each
 * one's file sits under `../shared/benchmarks/`, and which of its fields are
 * the question and the answer, as the benchmark wrote them. A set's name is
 * the benchmark's, a slash, its split (`gsm8k/test`); an item is its 0-based
 * line in the file.
 */

type Line = Record<string, unknown>;

export interface BenchmarkSpec {
  /** `gsm8k/test`. */
  name: string;
  /** The file under `../shared/benchmarks/`. */
  file: string;
  /** What the benchmark is called in messages. */
  title: string;
  item: (line: Line) => EvalItem;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export const BENCHMARKS: readonly BenchmarkSpec[] = [
  {
    name: 'gsm8k/test',
    file: 'gsm8k_test.jsonl',
    title: 'GSM8K test',
    item: (line) => ({ question: text(line.question), answer: text(line.answer) }),
  },
  {
    name: 'math/test',
    file: 'math_test.jsonl',
    title: 'MATH test',
    item: (line) => ({ question: text(line.problem), answer: text(line.solution) }),
  },
  {
    name: 'humaneval/test',
    file: 'humaneval_test.jsonl',
    title: 'HumanEval',
    item: (line) => ({ question: text(line.prompt), answer: text(line.canonical_solution) }),
  },
  {
    name: 'mbpp/test',
    file: 'mbpp_test.jsonl',
    title: 'MBPP test',
    item: (line) => ({ question: text(line.text), answer: text(line.code) }),
  },
  {
    name: 'truthfulqa/validation',
    file: 'truthfulqa_validation.jsonl',
    title: 'TruthfulQA',
    item: (line) => ({ question: text(line.Question), answer: text(line['Best Answer']) }),
  },
  {
    name: 'bbh/test',
    file: 'bbh_test.jsonl',
    title: 'BIG-Bench Hard',
    item: (line) => ({ question: text(line.input), answer: text(line.target) }),
  },
  {
    name: 'ifeval/test',
    file: 'ifeval_test.jsonl',
    title: 'IFEval',
    item: (line) => ({ question: text(line.prompt) }),
  },
];

/** The benchmark's short name: `gsm8k` for `gsm8k/test`. */
export const benchmarkKey = (name: string): string => name.split('/')[0] ?? name;

/** The spec of a set name, if it is a shipped benchmark. */
export const benchmarkSpec = (name: string): BenchmarkSpec | undefined =>
  BENCHMARKS.find((b) => b.name === name);
