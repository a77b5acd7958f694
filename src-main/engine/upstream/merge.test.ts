import { describe, expect, it } from 'vitest';
import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { NO_CONVENTIONS, parseConventions } from '../conventions.ts';
import { runChecks } from '../checks/index.ts';
import { decided, undecided, verdictOf } from '../verdict.ts';
import { mergeCheck, mergeVerdicts, upstreamCode, upstreamVerdict } from './merge.ts';

const error = (code: string): Issue => ({ code, message: code, path: '/text', severity: 'error' });
const warning = (code: string): Issue => ({ ...error(code), severity: 'warning' });
const fail = (code = 'mojibake'): Verdict => verdictOf([error(code)]);

describe('the merge rule, per check', () => {
  it('keeps a builtin failure whatever the upstream says', () => {
    const merged = mergeCheck(
      'fluency',
      fail(),
      upstreamVerdict('fluency', true, [], NO_CONVENTIONS),
    );
    expect(merged.passed).toBe(false);
    expect(merged.score).toBe(fail().score);
    expect(merged.issues.map((i) => i.code)).toEqual(['mojibake']);
  });

  it('lets the upstream fail what the rules found clean, with the lower score and both issue lists', () => {
    const theirs = upstreamVerdict(
      'coherence',
      false,
      [{ ...error('upstream_off_topic') }, warning('upstream_rambling')],
      NO_CONVENTIONS,
    );
    const own = verdictOf([warning('repeated_lines')]);
    const merged = mergeCheck('coherence', own, theirs);
    expect(merged.passed).toBe(false);
    expect(merged.score).toBe(Math.min(own.score, theirs.score));
    expect(merged.issues.map((i) => i.code)).toEqual([
      'repeated_lines',
      'upstream_off_topic',
      'upstream_rambling',
    ]);
  });

  it('an undecided upstream changes nothing', () => {
    const own = verdictOf([warning('whitespace')]);
    expect(mergeCheck('formatting', own, undecided([warning('upstream_x')]))).toBe(own);
    expect(mergeCheck('formatting', own, undefined)).toBe(own);
  });

  it('turns an undecided computed check into the upstream decision, and never overrides a computed one', () => {
    const wrong = decided(false, error('upstream_label_incorrect'));
    expect(mergeCheck('label_correct', undecided(), wrong)).toBe(wrong);
    expect(mergeCheck('label_correct', undecided(), decided(true, error('x')))).toEqual({
      passed: true,
      score: 1,
      issues: [],
    });
    const computed = decided(true, error('label_incorrect'));
    expect(mergeCheck('label_correct', computed, wrong)).toBe(computed);
  });

  it('two passes give a pass with the lower score and the warnings of both', () => {
    const own = verdictOf([warning('whitespace')]);
    const theirs = upstreamVerdict(
      'formatting',
      true,
      [warning('upstream_list'), warning('upstream_table')],
      NO_CONVENTIONS,
    );
    const merged = mergeCheck('formatting', own, theirs);
    expect(merged.passed).toBe(true);
    expect(merged.issues).toHaveLength(3);
    expect(merged.score).toBe(Math.min(own.score, theirs.score));
    expect(merged.score).toBeLessThan(own.score);
  });
});

describe('upstream verdicts are made consistent', () => {
  it('prefixes and tidies codes', () => {
    expect(upstreamCode('Grammar Error!', 'fluency')).toBe('upstream_grammar_error');
    expect(upstreamCode('upstream_off_topic', 'coherence')).toBe('upstream_off_topic');
    expect(upstreamCode('   ', 'safety')).toBe('upstream_safety');
  });

  it('demotes errors on a passing check and adds one to a failing check that named none', () => {
    const passing = upstreamVerdict('fluency', true, [error('upstream_typo')], NO_CONVENTIONS);
    expect(passing).toMatchObject({ passed: true, issues: [{ severity: 'warning' }] });
    const failing = upstreamVerdict('safety', false, [], NO_CONVENTIONS, '/text');
    expect(failing.passed).toBe(false);
    expect(failing.issues).toEqual([
      expect.objectContaining({ code: 'upstream_safety', path: '/text', severity: 'error' }),
    ]);
  });

  it('scores upstream issues as the builtin rules are scored', () => {
    const issues = [error('upstream_a'), warning('upstream_b')];
    expect(upstreamVerdict('coherence', false, issues, NO_CONVENTIONS).score).toBe(
      verdictOf(issues).score,
    );
    expect(upstreamVerdict('coherence', null, issues, NO_CONVENTIONS)).toEqual(undecided());
  });

  it('drops codes the conventions allow; a failure left without reasons passes', () => {
    const conventions = parseConventions('Profanity is fine in this dataset.');
    const verdict = upstreamVerdict('safety', false, [error('upstream_profanity')], conventions);
    expect(verdict).toEqual(verdictOf([]));
  });
});

describe('mergeVerdicts over a pass', () => {
  it('ignores checks the builtin pass lacks and checks the conventions switch off', () => {
    const sample = { task_type: 'text' as const, text: 'A clean sentence about cats.' };
    const builtin = runChecks(sample, parseConventions('Ignore safety.'));
    const merged = mergeVerdicts(
      builtin,
      {
        safety: upstreamVerdict('safety', false, [error('upstream_x')], NO_CONVENTIONS),
        made_up: fail(),
        coherence: upstreamVerdict('coherence', false, [error('upstream_y')], NO_CONVENTIONS),
      },
      parseConventions('Ignore safety.'),
    );
    expect(Object.keys(merged.checks)).toEqual(Object.keys(builtin.checks));
    expect(merged.checks.safety).toEqual(builtin.checks.safety);
    expect(merged.checks.coherence?.passed).toBe(false);
  });

  it('recomputes label_correct from the merged check', () => {
    const sample = {
      task_type: 'multiple_choice' as const,
      context: 'Which planet is red?',
      choices: ['Venus', 'Mars'],
      answer_index: 0,
    };
    const builtin = runChecks(sample, NO_CONVENTIONS);
    expect(builtin.label_correct).toBeNull();
    const merged = mergeVerdicts(
      builtin,
      { label_correct: decided(false, error('upstream_label_incorrect')) },
      NO_CONVENTIONS,
    );
    expect(merged.label_correct).toBe(false);
    expect(merged).not.toHaveProperty('answer_correct');
  });
});
