import type { Finding, RuleContext, TextRule } from './rule.ts';
import { TEXT_RULES } from './rules/index.ts';

/**
 * What each text rule found in the strings of the fields read lately. The
 * builtin backend fills it ahead of the audit, rule by rule over the fields
 * of the next samples (`inspectAhead`); a fix reads a sample's fields again
 * right after its audit (to plan, to repair until stable, to audit the
 * candidate, and refine once more), and most of them are unchanged: their
 * findings are taken from here instead of being detected again. Rules are
 * pure functions of the text and its context, so this changes no result.
 * Enough fields are kept for the samples read ahead (128 items of five
 * fields) and the candidates of their fixes.
 */
const MAX_TEXTS = 1024;
type Findings = (Finding | null | undefined)[];
/** The contexts a text was read in (usually one), each with its findings. */
interface Read {
  freeText: boolean;
  path: string;
  role: string | undefined;
  found: Findings;
}
const recent = new Map<string, Read[]>();

const RULE_INDEX = new Map<TextRule, number>(TEXT_RULES.map((rule, i) => [rule, i]));

/** The findings of every rule on `text` in `context`, filled in as rules are asked. */
export function findingsOf(text: string, context: RuleContext): Findings {
  let reads = recent.get(text);
  if (reads) {
    // The context is part of the key: placeholders and boilerplate are judged by field and role.
    for (const read of reads) {
      if (
        read.freeText === context.freeText &&
        read.path === context.path &&
        read.role === context.role
      ) {
        return read.found;
      }
    }
  } else {
    reads = [];
    if (recent.size >= MAX_TEXTS) {
      const oldest = recent.keys().next();
      if (!oldest.done) recent.delete(oldest.value);
    }
    recent.set(text, reads);
  }
  const found = new Array<Finding | null | undefined>(TEXT_RULES.length);
  reads.push({ freeText: context.freeText, path: context.path, role: context.role, found });
  return found;
}

/** `rule.detect(text, context)`, through the findings of that field. */
export function detectIn(
  found: Findings,
  rule: TextRule,
  text: string,
  context: RuleContext,
): Finding | null {
  const index = RULE_INDEX.get(rule);
  if (index === undefined) return rule.detect(text, context);
  let finding = found[index];
  if (finding === undefined) {
    finding = rule.detect(text, context);
    found[index] = finding;
  }
  return finding;
}
