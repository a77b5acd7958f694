import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FieldMapping } from '../src-shared/schemas/mapping.ts';
import { sharedFile } from '../src-main/engine/testing/shared-data.ts';

/**
 * The real files the precision part audits: every JSON Lines file of
 * ../shared/datasets, read as the app imports it (its shape detected), and the
 * benchmark test sets of ../shared/benchmarks that hold text a reviewer can
 * judge. No shape reads the benchmarks' own field names, so each gets the
 * mapping a user would give on import (`--map`); the engine never sees the
 * file's name. IFEval holds prompts only (read as text); HumanEval is code
 * under a docstring and is left out.
 */

export interface PrecisionFile {
  /** `datasets/NAME.jsonl` or `benchmarks/NAME.jsonl`. */
  label: string;
  path: string;
  /** The mapping given on import; undefined: the shape detected from the first rows. */
  mapping?: FieldMapping;
}

const qa = (question: string, answer: string): FieldMapping => ({
  task_type: 'question_answer',
  fields: { question, answer },
});

const BENCHMARK_MAPPINGS: Record<string, FieldMapping | undefined> = {
  'bbh_test.jsonl': qa('input', 'target'),
  'gsm8k_test.jsonl': undefined,
  'ifeval_test.jsonl': { task_type: 'text', fields: { text: 'prompt' } },
  'math_test.jsonl': qa('problem', 'solution'),
  'mbpp_test.jsonl': qa('text', 'code'),
  'truthfulqa_validation.jsonl': qa('Question', 'Best Answer'),
};

const jsonlOf = (folder: string): string[] =>
  readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();

/** The files present, and a line for each folder that is absent. */
export function precisionFiles(): { files: PrecisionFile[]; absent: string[] } {
  const files: PrecisionFile[] = [];
  const absent: string[] = [];
  const datasets = sharedFile('datasets');
  if (datasets.present) {
    for (const name of jsonlOf(datasets.path)) {
      files.push({ label: `datasets/${name}`, path: join(datasets.path, name) });
    }
  } else absent.push(datasets.reason);
  const benchmarks = sharedFile('benchmarks');
  if (benchmarks.present) {
    for (const name of jsonlOf(benchmarks.path)) {
      if (!(name in BENCHMARK_MAPPINGS)) continue;
      const mapping = BENCHMARK_MAPPINGS[name];
      files.push({
        label: `benchmarks/${name}`,
        path: join(benchmarks.path, name),
        ...(mapping ? { mapping } : {}),
      });
    }
  } else absent.push(benchmarks.reason);
  return { files, absent };
}
