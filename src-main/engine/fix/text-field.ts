import type { Conventions } from '../conventions.ts';
import type { TextDimension } from '../text/rule.ts';
import { detectIn, findingsOf } from '../text/findings-memo.ts';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { instructionBefore } from '../checks/conversation.ts';
import { standDownNote } from '../text/instruction.ts';
import { TEXT_RULES } from '../text/rules/index.ts';
import type { PatchBuilder } from './patch-builder.ts';
import type { FixPlan } from './plan.ts';

export interface TextFieldFix {
  freeText: boolean;
  conventions: Conventions;
  plan: FixPlan;
  /** The check a change answers, for the change's `reason`. */
  checkOf: (dimension: TextDimension) => string;
}

/**
 * Applies, in rule order, every repair whose problem is present in the field
 * right now (an earlier repair may already have solved a later one).
 */
export function fixTextField(builder: PatchBuilder, path: string, options: TextFieldFix): void {
  // One repair can expose another (a collapsed space completes a mojibake pattern):
  // go round until the field is stable, so that fixing a fixed sample changes nothing.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = builder.changes.length;
    fixTextFieldOnce(builder, path, options);
    if (builder.changes.length === before) return;
  }
}

const MAX_ROUNDS = 4;

/** The role of the turn a path points into (`/messages/3/content`), if it is one. */
function roleAt(builder: PatchBuilder, path: string): string | undefined {
  const turn = /^(\/messages\/\d+)\/content$/.exec(path)?.[1];
  if (turn === undefined) return undefined;
  const role = builder.get(`${turn}/role`);
  return typeof role === 'string' ? role : undefined;
}

/** The instruction the field answers: the user turn before an assistant turn, an answer's question. */
function instructionAt(builder: PatchBuilder, path: string): string | undefined {
  if (path === '/answer') {
    const question = builder.get('/question');
    return typeof question === 'string' ? question : undefined;
  }
  const turn = /^\/messages\/(\d+)\/content$/.exec(path)?.[1];
  if (turn === undefined) return undefined;
  const messages = builder.get('/messages');
  return Array.isArray(messages)
    ? instructionBefore(messages as ConversationSample['messages'], Number(turn))
    : undefined;
}

function fixTextFieldOnce(builder: PatchBuilder, path: string, options: TextFieldFix): void {
  const context = { freeText: options.freeText, path, role: roleAt(builder, path) };
  const instruction = instructionAt(builder, path);
  for (const rule of TEXT_RULES) {
    if (!rule.fix) continue;
    if (!options.freeText && rule.freeTextOnly) continue;
    if (options.conventions.off.has(rule.code) || !options.plan.allows(rule.code)) continue;
    const current = builder.get(path);
    if (typeof current !== 'string') continue;
    const finding = detectIn(findingsOf(current, context), rule, current, context);
    if (!finding) continue;
    // What the instruction asked for stays as it is (the audit leaves it as a warning).
    if (standDownNote(rule.code, instruction, current, finding.example) !== null) continue;
    const fix = rule.fix;
    builder.rewrite(path, (text) => fix(text, context), options.checkOf(rule.dimension));
  }
}
