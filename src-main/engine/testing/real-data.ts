import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ConversationSample,
  MultipleChoiceSample,
  QuestionAnswerSample,
  TextSample,
} from '../../../src-shared/schemas/sample.ts';

/** The real datasets shipped in resources/datasets, as samples, for the engine's tests. */

const DATASETS = join(import.meta.dirname, '..', '..', '..', 'resources', 'datasets');

export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(join(DATASETS, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

interface Gsm8kRow {
  question: string;
  answer: string;
}
export const gsm8k = (): QuestionAnswerSample[] =>
  readJsonl<Gsm8kRow>('gsm8k_test_first300.jsonl').map((r) => ({
    task_type: 'question_answer',
    question: r.question,
    answer: r.answer,
  }));

interface CsqaRow {
  id: string;
  question: string;
  choices: { label: string[]; text: string[] };
  answerKey: string;
}
export const commonsenseQa = (): MultipleChoiceSample[] =>
  readJsonl<CsqaRow>('commonsenseqa_validation_first200.jsonl').map((r) => ({
    task_type: 'multiple_choice',
    context: r.question,
    choices: r.choices.text,
    answer_index: r.choices.label.indexOf(r.answerKey),
    style: 'qa',
    id: r.id,
  }));

interface HellaswagRow {
  ind: number;
  ctx: string;
  endings: string[];
  label: number | string;
}
export const hellaswag = (): MultipleChoiceSample[] =>
  readJsonl<HellaswagRow>('hellaswag_val_sample200.jsonl').map((r) => ({
    task_type: 'multiple_choice',
    context: r.ctx,
    choices: r.endings,
    answer_index: Number(r.label),
    style: 'continuation',
    ind: r.ind,
  }));

interface TruthfulRow {
  question: string;
  mc1_targets: Record<string, number>;
}
export const truthfulQa = (): MultipleChoiceSample[] =>
  readJsonl<TruthfulRow>('truthfulqa_mc_task_first200.jsonl').map((r) => ({
    task_type: 'multiple_choice',
    context: r.question,
    choices: Object.keys(r.mc1_targets),
    answer_index: Object.values(r.mc1_targets).indexOf(1),
    style: 'qa',
  }));

interface OasstNode {
  text: string;
  role: 'prompter' | 'assistant';
  rank?: number;
  replies?: OasstNode[];
}
export const oasst = (): ConversationSample[] =>
  readJsonl<{ prompt: OasstNode }>('oasst_en_100_trees.jsonl').map((tree) => {
    const messages: { role: string; content: string }[] = [];
    let node: OasstNode | undefined = tree.prompt;
    while (node) {
      messages.push({ role: node.role === 'prompter' ? 'user' : 'assistant', content: node.text });
      const replies: OasstNode[] = node.replies ?? [];
      node = replies.find((r) => r.rank === 0) ?? replies[0];
    }
    return { task_type: 'conversation', messages, turns: 'all' };
  });

export interface FtfyCase {
  label: string;
  original: string;
  fixed: string;
  'fixed-encoding'?: string;
  expect: 'pass' | 'fail';
}
/** Lines 1-70 in the wild, 71-80 known failures, 81-111 negatives (see ATTRIBUTION.md). */
export const ftfyCases = (): {
  wild: FtfyCase[];
  knownFailures: FtfyCase[];
  negative: FtfyCase[];
} => {
  const all = readJsonl<FtfyCase>('ftfy_mojibake_cases.jsonl');
  return { wild: all.slice(0, 70), knownFailures: all.slice(70, 80), negative: all.slice(80) };
};

export const asText = (text: string): TextSample => ({ task_type: 'text', text });
