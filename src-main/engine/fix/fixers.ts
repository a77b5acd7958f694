import type {
  ConversationSample,
  MultipleChoiceSample,
  Sample,
} from '../../../src-shared/schemas/sample.ts';
import { formatNumber, parseStatedNumber } from '../arithmetic.ts';
import { computedChoice, normalizeChoice } from '../checks/multiple-choice.ts';
import { turnsRead } from '../checks/conversation.ts';
import { structuredCheckFor } from '../checks/text-fields.ts';
import {
  annotationIsWrong,
  annotations,
  finalAnswer,
  isWorkedSolution,
  lastLine,
  solutionBody,
  readStatedNumber,
  unsupportedReason,
  visibleDisagrees,
  visibleEcho,
} from '../checks/worked-solution.ts';
import type { Conventions } from '../conventions.ts';
import { TEXT_RULES } from '../text/rules/index.ts';
import { repairMangledNumbers } from '../checks/choice-numbers.ts';
import { PatchBuilder } from './patch-builder.ts';
import type { FixPlan } from './plan.ts';
import { fixTextField } from './text-field.ts';

/** Issue codes the builtin fixers can repair (text rules with a `fix`, and the structural ones). */
export const FIXABLE_CODES: ReadonlySet<string> = new Set([
  ...TEXT_RULES.filter((rule) => rule.fix).map((rule) => rule.code),
  'duplicate_choice',
  'empty_choice',
  'lost_exponent',
  'spreadsheet_date',
  'label_incorrect',
  'annotation_wrong',
  'visible_result_mismatch',
  'answer_unsupported',
  'invalid_role',
  'empty_turn',
  'consecutive_roles',
]);

/** Builds one candidate repair of a sample under a plan. */
export function proposeFix(sample: Sample, plan: FixPlan, conventions: Conventions): PatchBuilder {
  const builder = new PatchBuilder(sample);
  const can = (code: string): boolean => plan.allows(code) && !conventions.off.has(code);
  switch (sample.task_type) {
    case 'text':
      fixTextField(builder, '/text', { freeText: true, conventions, plan, checkOf: (d) => d });
      break;
    case 'multiple_choice':
      fixMultipleChoice(builder, sample, plan, conventions, can);
      break;
    case 'question_answer':
      fixQuestionAnswer(builder, plan, conventions, can);
      break;
    case 'conversation':
      fixConversation(builder, plan, conventions, can);
      break;
  }
  return builder;
}

type Can = (code: string) => boolean;

function fixMultipleChoice(
  builder: PatchBuilder,
  sample: MultipleChoiceSample,
  plan: FixPlan,
  conventions: Conventions,
  can: Can,
): void {
  const field = { freeText: false, conventions, plan, checkOf: structuredCheckFor };
  fixTextField(builder, '/context', field);
  sample.choices.forEach((_, i) => fixTextField(builder, `/choices/${i}`, field));

  // Numbers a spreadsheet or a lost superscript mangled ("14-May", "9.3 x 1013"), read in the
  // context of the other options, repaired before duplicates are looked for.
  if (can('lost_exponent') || can('spreadsheet_date')) {
    const current = builder.sample as MultipleChoiceSample;
    const repaired = current.choices.map((_, i) =>
      repairMangledNumbers(i, current.choices, current.context),
    );
    repaired.forEach((choice, i) => {
      if (choice !== current.choices[i]) builder.replace(`/choices/${i}`, choice, 'choices');
    });
  }

  // Drop duplicate and empty choices from the end, re-pointing the label to the kept twin.
  const working = builder.sample as MultipleChoiceSample;
  const firstOf = new Map<string, number>();
  const drop: { index: number; keep: number | undefined; code: string }[] = [];
  working.choices.forEach((choice, i) => {
    if (choice.trim() === '') {
      drop.push({ index: i, keep: undefined, code: 'empty_choice' });
      return;
    }
    const key = normalizeChoice(choice);
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, i);
    else drop.push({ index: i, keep: first, code: 'duplicate_choice' });
  });
  const droppable = drop.filter(
    (d) => can(d.code) && (d.index !== working.answer_index || d.keep !== undefined),
  );
  if (working.choices.length - droppable.length >= 2 && droppable.length > 0) {
    let label = working.answer_index;
    for (const d of [...droppable].reverse()) {
      if (label === d.index && d.keep !== undefined) label = d.keep;
      else if (label > d.index) label -= 1;
      builder.remove(`/choices/${d.index}`, 'choices');
    }
    builder.replace('/answer_index', label, 'choices');
  }

  if (can('label_incorrect')) {
    const computed = computedChoice(builder.sample as MultipleChoiceSample);
    const target = computed?.matches[0];
    if (target !== undefined && !computed?.matches.includes(working.answer_index)) {
      builder.replace('/answer_index', target, 'label_correct');
    }
  }
}

function fixQuestionAnswer(
  builder: PatchBuilder,
  plan: FixPlan,
  conventions: Conventions,
  can: Can,
): void {
  if (can('annotation_wrong') || can('visible_result_mismatch')) {
    builder.rewrite('/answer', correctAnnotations, 'arithmetic');
  }
  if (can('answer_unsupported')) {
    builder.rewrite('/answer', restoreFinalAnswer, 'answer_correct');
  }
  const field = { freeText: false, conventions, plan, checkOf: structuredCheckFor };
  fixTextField(builder, '/question', field);
  fixTextField(builder, '/answer', field);
}

/** `<<48/2=25>>25` -> `<<48/2=24>>24`: the computed result replaces the stated one (and its echo). */
export function correctAnnotations(answer: string): string {
  let out = answer;
  for (const a of annotations(answer).reverse()) {
    if (!annotationIsWrong(a) && visibleDisagrees(a) && a.visible) {
      // the calculator is right and the text after it is not: the text takes the calculator's value
      out =
        out.slice(0, a.visible.index) +
        a.stated +
        out.slice(a.visible.index + a.visible.text.length);
      continue;
    }
    if (!annotationIsWrong(a) || a.computed === null) continue;
    const value = formatNumber(a.computed);
    const echo = visibleEcho(a);
    if (a.visible && echo !== null) {
      out = out.slice(0, a.visible.index) + value + out.slice(a.visible.index + echo.length);
    }
    const statedAt = a.index + 2 + a.expression.length + 1;
    out = out.slice(0, statedAt) + value + out.slice(statedAt + a.stated.length);
  }
  return out;
}

/**
 * A final `#### N` that its solution does not support is set to what the last
 * line concludes, when it says so: the result of the calculator annotation
 * the line ends with, stated after it and right (`... = $<<9*2=18>>18 a
 * day.`), or the result of the equation it ends with (`... = 17 stickers`).
 * Otherwise the right value is not known and the sample stays flagged.
 */
export function restoreFinalAnswer(answer: string): string {
  const final = finalAnswer(answer);
  if (!final || final.value === null || !isWorkedSolution(answer)) return answer;
  const body = solutionBody(answer);
  if (unsupportedReason(body, final.value, final.text) === null) return answer;
  const result = concludedValue(lastLine(body));
  if (result === undefined) return answer;
  return answer.slice(0, final.index) + result + answer.slice(final.index + final.text.length);
}

/** The value a solution's last line concludes with, or undefined. */
function concludedValue(line: string): string | undefined {
  const last = annotations(line).at(-1);
  if (last?.visible) {
    const { visible } = last;
    const echo = visibleEcho(last);
    const stated = echo !== null;
    const endsLine = !/\d/.test(line.slice(visible.index + visible.text.length));
    const right = last.computed !== null && !annotationIsWrong(last);
    const value = echo === null ? null : readStatedNumber(echo);
    // written as a final answer is ("16.00" in the text is "#### 16")
    if (stated && endsLine && right && value !== null) return formatNumber(value);
  }
  // a plain equation in the prose, not the inside of an annotation ("<<9*2=18>> dollars")
  const prose = line.replace(/<<[^<>]*>>/g, ' ');
  const result = /=\s*\$?(-?\d[\d,]*(?:\.\d+)?)[^=\d]*$/.exec(prose)?.[1];
  return result !== undefined && parseStatedNumber(result) !== null ? result : undefined;
}

const ROLE_ALIASES: Record<string, string> = {
  human: 'user',
  prompter: 'user',
  user: 'user',
  gpt: 'assistant',
  bot: 'assistant',
  model: 'assistant',
  ai: 'assistant',
  chatgpt: 'assistant',
  assistant: 'assistant',
  system: 'system',
};

function fixConversation(
  builder: PatchBuilder,
  plan: FixPlan,
  conventions: Conventions,
  can: Can,
): void {
  const messages = (): ConversationSample['messages'] =>
    (builder.sample as ConversationSample).messages;
  if (can('invalid_role')) {
    messages().forEach((m, i) => {
      const mapped = ROLE_ALIASES[m.role.trim().toLowerCase()];
      if (mapped && mapped !== m.role) builder.replace(`/messages/${i}/role`, mapped, 'roles');
    });
  }
  if (can('empty_turn')) {
    for (let i = messages().length - 1; i >= 0; i--) {
      if (messages().length > 1 && (messages()[i]?.content.trim() ?? '') === '') {
        builder.remove(`/messages/${i}`, 'empty_turns');
      }
    }
  }
  if (can('consecutive_roles')) {
    for (let i = messages().length - 1; i > 0; i--) {
      const [previous, current] = [messages()[i - 1], messages()[i]];
      if (previous && current && previous.role === current.role && current.role !== 'system') {
        builder.replace(
          `/messages/${i - 1}/content`,
          `${previous.content}\n\n${current.content}`,
          'alternation',
        );
        builder.remove(`/messages/${i}`, 'alternation');
      }
    }
  }
  for (const i of turnsRead(builder.sample as ConversationSample)) {
    fixTextField(builder, `/messages/${i}/content`, {
      freeText: true,
      conventions,
      plan,
      checkOf: (d) => d,
    });
  }
}
