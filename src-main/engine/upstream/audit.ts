import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type {
  ConversationSample,
  MultipleChoiceSample,
  QuestionAnswerSample,
  Sample,
  TextSample,
} from '../../../src-shared/schemas/sample.ts';
import type { AuditPass, PassContext } from '../backend.ts';
import { builtinBackend } from '../builtin/backend.ts';
import { turnsRead } from '../checks/conversation.ts';
import type { TokenUsage } from '../usage.ts';
import { decided, undecided } from '../verdict.ts';
import { choiceOrder } from './choice-order.ts';
import type { UpstreamClient } from './client.ts';
import { mergeVerdicts, upstreamCode, upstreamVerdict } from './merge.ts';
import {
  choiceAuditPrompt,
  choiceLabel,
  conversationAuditPrompt,
  labelPosition,
  qaAuditPrompt,
  textAuditPrompt,
  type ConversationAuditAnswer,
  type TextAuditAnswer,
} from './prompts.ts';
import { choiceLetter } from '../../../src-shared/letters.ts';

/**
 * One audit pass through an upstream model: the builtin checks run first and
 * always; the model adds what they cannot judge (the meaning side of the text
 * dimensions for text and conversation samples, `label_correct` for multiple
 * choice, `answer_correct` for question answering), and the two are merged by
 * the rule in merge.ts. The pass's usage is the upstream's own token counts.
 * A sample with nothing to ask (an empty text, fewer than two choices) gets
 * the builtin pass alone, counted as the builtin engine counts it.
 */

interface Judgments {
  checks: Record<string, Verdict>;
  usage: TokenUsage;
  /** The option the model chose, for multiple choice (null: it named none). */
  chosen?: number | null;
}

const MAX_MESSAGE = 500;
const clip = (text: string): string =>
  text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;

export async function upstreamAudit(
  client: UpstreamClient,
  sample: Sample,
  ctx: PassContext,
): Promise<AuditPass> {
  const builtin = await builtinBackend.audit(sample, ctx);
  const judged = await judge(client, sample, ctx);
  if (!judged) return builtin;
  const verdicts = mergeVerdicts(builtin.verdicts, judged.checks, ctx.conventions);
  // Where the label's verdict is the model's (nothing computed it), votes count its choice.
  const computed = builtin.verdicts.checks.label_correct?.passed ?? null;
  if (
    judged.chosen !== undefined &&
    computed === null &&
    !ctx.conventions.off.has('label_correct')
  ) {
    verdicts.chosen = { label_correct: judged.chosen };
  }
  return { verdicts, usage: judged.usage };
}

function judge(
  client: UpstreamClient,
  sample: Sample,
  ctx: PassContext,
): Promise<Judgments | null> {
  switch (sample.task_type) {
    case 'text':
      return judgeText(client, sample, ctx);
    case 'conversation':
      return judgeConversation(client, sample, ctx);
    case 'multiple_choice':
      return judgeChoices(client, sample, ctx);
    case 'question_answer':
      return judgeAnswer(client, sample, ctx);
  }
}

type DimensionAnswers = TextAuditAnswer | ConversationAuditAnswer;

function dimensionVerdicts(
  answer: DimensionAnswers,
  pathOf: (turn: number | null) => string | undefined,
  ctx: PassContext,
): Record<string, Verdict> {
  const checks: Record<string, Verdict> = {};
  for (const [check, judged] of Object.entries(answer)) {
    const issues: Issue[] = judged.issues.map((issue) => {
      const turn = 'turn' in issue && typeof issue.turn === 'number' ? issue.turn : null;
      const path = pathOf(turn);
      return {
        code: upstreamCode(issue.code, check),
        message: clip(issue.message),
        ...(path === undefined ? {} : { path }),
        severity: issue.severity,
      };
    });
    checks[check] = upstreamVerdict(check, judged.passed, issues, ctx.conventions, pathOf(null));
  }
  return checks;
}

async function judgeText(
  client: UpstreamClient,
  sample: TextSample,
  ctx: PassContext,
): Promise<Judgments | null> {
  if (sample.text.trim() === '') return null;
  const answer = await client.complete(textAuditPrompt(sample, ctx.conventions), ctx.signal);
  return { checks: dimensionVerdicts(answer.value, () => '/text', ctx), usage: answer.usage };
}

async function judgeConversation(
  client: UpstreamClient,
  sample: ConversationSample,
  ctx: PassContext,
): Promise<Judgments | null> {
  const read = turnsRead(sample);
  if (read.every((i) => (sample.messages[i]?.content.trim() ?? '') === '')) return null;
  const last = read.at(-1);
  const pathOf = (turn: number | null): string | undefined => {
    const at = turn !== null && turn >= 0 && turn < sample.messages.length ? turn : last;
    return at === undefined ? undefined : `/messages/${at}/content`;
  };
  const answer = await client.complete(
    {
      ...conversationAuditPrompt(sample, ctx.conventions),
      check: (value) => {
        const bad = Object.values(value)
          .flatMap((v) => v.issues)
          .find((i) => i.turn !== null && (i.turn < 0 || i.turn >= sample.messages.length));
        return bad
          ? `turn ${bad.turn} does not exist (turns 0..${sample.messages.length - 1})`
          : null;
      },
    },
    ctx.signal,
  );
  return { checks: dimensionVerdicts(answer.value, pathOf, ctx), usage: answer.usage };
}

/**
 * Each vote shows the choices in its own order (choice-order.ts) and the
 * model names a letter, which is mapped back to the original index: the
 * label is correct when that is `answer_index`.
 */
async function judgeChoices(
  client: UpstreamClient,
  sample: MultipleChoiceSample,
  ctx: PassContext,
): Promise<Judgments | null> {
  const count = sample.choices.length;
  if (count < 2) return null;
  const order = choiceOrder(count, ctx.vote ?? 0);
  const answer = await client.complete(
    {
      ...choiceAuditPrompt(sample, order, ctx.conventions),
      check: (value) =>
        value.answer === null || labelPosition(value.answer, count) !== null
          ? null
          : `"${value.answer}" is not one of the letters ${choiceLabel(0)}..${choiceLabel(count - 1)}`,
    },
    ctx.signal,
  );
  const { answer: label, reasoning } = answer.value;
  const position = label === null ? null : labelPosition(label, count);
  const chosen = position === null ? undefined : order[position];
  let verdict: Verdict;
  if (chosen === undefined) {
    verdict = undecided();
  } else {
    const text = (sample.choices[chosen] ?? '').slice(0, 60);
    verdict = decided(chosen === sample.answer_index, {
      code: upstreamCode('label_incorrect', 'label_correct'),
      message: clip(
        `the upstream model chose choice ${choiceLetter(chosen)} ("${text}"), not the labelled ` +
          `${sample.answer_index}: ${reasoning}`,
      ),
      path: '/answer_index',
      severity: 'error',
    });
  }
  return { checks: { label_correct: verdict }, usage: answer.usage, chosen: chosen ?? null };
}

async function judgeAnswer(
  client: UpstreamClient,
  sample: QuestionAnswerSample,
  ctx: PassContext,
): Promise<Judgments | null> {
  if (sample.question.trim() === '' || sample.answer.trim() === '') return null;
  const answer = await client.complete(qaAuditPrompt(sample, ctx.conventions), ctx.signal);
  const { answer_correct: correct, correct_answer: expected, reasoning } = answer.value;
  const verdict =
    correct === null
      ? undecided()
      : decided(correct, {
          code: upstreamCode('answer_incorrect', 'answer_correct'),
          message: clip(
            `the upstream model judges the answer wrong` +
              (expected ? ` (it gets ${expected})` : '') +
              `: ${reasoning}`,
          ),
          path: '/answer',
          severity: 'error',
        });
  return { checks: { answer_correct: verdict }, usage: answer.usage };
}
