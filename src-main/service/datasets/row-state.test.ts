import { describe, expect, it } from 'vitest';
import type { AuditBlock, FixBlock, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { RunInputRecord } from '../../store/datasets-rows.ts';
import { gridText } from './grid-text.ts';
import { displayedVerdict, rowResult, verdictColumns, verdictInForce } from './row-state.ts';
import { Throttle } from './throttle.ts';

const verdict = (passed: boolean | null, score: number): Verdict => ({ passed, score, issues: [] });
const audit = (checks: Record<string, Verdict>, extra = {}): AuditBlock => ({
  passed: Object.values(checks).every((v) => v.passed !== false),
  checks,
  model: 'svc-audit-1',
  votes: 1,
  ...extra,
});
const fix = (changes: number, flagged = false): FixBlock => ({
  changes: Array.from({ length: changes }, () => ({
    op: 'replace' as const,
    path: '/text',
    value: 'b',
    old: 'a',
    reason: 'formatting',
  })),
  flagged,
  attempts: 1,
});
const before = (overrides: Partial<RunInputRecord> = {}): RunInputRecord => ({
  row_index: 4,
  sample_json: '{"task_type":"text","text":"a"}',
  lean_original: null,
  source_path: null,
  audit_json: null,
  fix_json: null,
  reaudit_json: null,
  fixed_json: null,
  decision: null,
  checks_json: null,
  ...overrides,
});

describe('verdictColumns', () => {
  it('takes the failed checks, the lowest decided score and whether the label was verified', () => {
    const block = audit(
      {
        a: verdict(true, 0.9),
        b: verdict(false, 0.2),
        c: verdict(false, 0.6),
        // undecided: says nothing about the row, so it does not set the score
        answer_correct: verdict(null, 0.1),
      },
      { answer_correct: null },
    );
    expect(verdictColumns(block)).toEqual({
      passed: 0,
      score: 0.2,
      failed_checks: ',b,c,',
      unverified: 1,
      error_codes: '',
      warning_codes: '',
      warning_checks: '',
    });
    expect(verdictColumns(null)).toEqual({
      passed: null,
      score: null,
      failed_checks: '',
      unverified: 0,
      error_codes: '',
      warning_codes: '',
      warning_checks: '',
    });
  });

  it('lists the codes of errors and of warnings, and the checks that warned, each once', () => {
    const issue = (code: string, severity?: 'warning') =>
      severity ? { code, message: code, severity } : { code, message: code };
    const block = audit({
      formatting: {
        passed: false,
        score: 0.5,
        issues: [issue('html'), issue('spaces', 'warning')],
      },
      safety: { passed: true, score: 0.9, issues: [issue('spaces', 'warning')] },
      duplicates: { passed: false, score: 0.6, issues: [issue('exact_duplicate')] },
    });
    expect(verdictColumns(block)).toMatchObject({
      failed_checks: ',formatting,duplicates,',
      error_codes: ',html,exact_duplicate,',
      warning_codes: ',spaces,',
      warning_checks: ',formatting,safety,',
    });
  });
});

describe('displayedVerdict', () => {
  const failing = {
    passed: false,
    score: 0.6,
    issues: [{ code: 'exact_duplicate', message: 'x' }],
  };
  const passing = { passed: true, score: 1, issues: [] };
  it('adds the dataset checks to the verdict in force, or stands alone when one fails', () => {
    const clean = audit({ formatting: verdict(true, 1) });
    expect(displayedVerdict(clean, null, null, { duplicates: failing })).toMatchObject({
      passed: false,
      checks: { formatting: { passed: true }, duplicates: failing },
    });
    expect(displayedVerdict(null, null, null, { duplicates: failing })?.checks).toEqual({
      duplicates: failing,
    });
    expect(
      displayedVerdict(null, null, null, { duplicates: passing, contamination: failing })?.checks,
    ).toEqual({ duplicates: passing, contamination: failing });
    expect(displayedVerdict(null, null, null, { duplicates: passing })).toBeNull();
    expect(displayedVerdict(clean, null, null, null)).toBe(clean);
    // A warning alone (a benchmark audited as itself) keeps the row passing.
    const warned = {
      passed: true,
      score: 0.9,
      issues: [{ code: 'benchmark_overlap', message: 'x' }],
    };
    expect(displayedVerdict(clean, null, null, { contamination: warned })).toMatchObject({
      passed: true,
      checks: { formatting: { passed: true }, contamination: warned },
    });
  });
});

describe('rowResult', () => {
  const failing = audit({ formatting: verdict(false, 0.6) });
  const clean = audit({ formatting: verdict(true, 1) });

  it('refine: the decision resets, so the verdict is the audit until the fix is accepted', () => {
    const result = rowResult('refine', before({ decision: 'accepted' }), {
      task_type: 'text',
      text: 'b',
      audit: failing,
      fix: fix(1),
      reaudit: clean,
    });
    expect(result).toMatchObject({
      passed: 0,
      changed: 1,
      flagged: 0,
      decision: null,
      fixed_json: '{"task_type":"text","text":"b"}',
    });
  });

  it('audit: replaces the audit and keeps the fix, its reaudit and the decision', () => {
    const previous = before({
      fix_json: JSON.stringify(fix(1)),
      reaudit_json: JSON.stringify(clean),
      fixed_json: '{"task_type":"text","text":"b"}',
      decision: 'accepted',
    });
    const result = rowResult('audit', previous, { task_type: 'text', text: 'a', audit: failing });
    // the accepted fix is what the export holds: its reaudit stays the verdict
    expect(result).toMatchObject({ passed: 1, changed: 1, decision: 'accepted' });
    expect(result.reaudit_json).toBe(previous.reaudit_json);
    expect(result.fixed_json).toBe(previous.fixed_json);
  });

  it('fix: drops the old reaudit, judges by the audit, and an untouched sample has no fixed copy', () => {
    const previous = before({
      audit_json: JSON.stringify(failing),
      reaudit_json: JSON.stringify(clean),
      decision: 'rejected',
    });
    const result = rowResult('fix', previous, { task_type: 'text', text: 'a', fix: fix(0, true) });
    expect(result).toMatchObject({
      passed: 0,
      reaudit_json: null,
      fixed_json: null,
      changed: 0,
      flagged: 1,
      decision: null,
    });
  });

  it('fix: keeps the audit of the accepted candidate, so accepting it shows its verdict', () => {
    const result = rowResult(
      'fix',
      before(),
      { task_type: 'text', text: 'b', fix: fix(1) },
      { before: failing, after: clean },
    );
    // an unaudited row gets the fix's audit of the input; pending, that is its verdict
    expect(result).toMatchObject({ passed: 0, changed: 1, decision: null });
    expect(JSON.parse(result.audit_json ?? 'null')).toEqual(failing);
    expect(JSON.parse(result.reaudit_json ?? 'null')).toEqual(clean);
    // an audited row keeps its own audit (it may have had more votes)
    const audited = rowResult(
      'fix',
      before({ audit_json: JSON.stringify(clean) }),
      { task_type: 'text', text: 'b', fix: fix(1) },
      { before: failing, after: clean },
    );
    expect(JSON.parse(audited.audit_json ?? 'null')).toEqual(clean);
  });
});

describe('verdictInForce', () => {
  const failing = audit({ formatting: verdict(false, 0.6) });
  const clean = audit({ formatting: verdict(true, 1) });
  it('is the reaudit only for an accepted fix', () => {
    expect(verdictInForce(failing, clean, 'accepted')).toBe(clean);
    expect(verdictInForce(failing, clean, 'rejected')).toBe(failing);
    expect(verdictInForce(failing, clean, null)).toBe(failing);
    expect(verdictInForce(failing, null, 'accepted')).toBe(failing);
  });
});

describe('gridText', () => {
  it('shows one line of each task type', () => {
    expect(
      gridText({
        task_type: 'multiple_choice',
        context: 'Pick  one\n',
        choices: ['A', 'B'],
        answer_index: 1,
      }),
    ).toEqual({ title: 'Pick one', detail: 'A | ✓ B' });
    expect(
      gridText({
        task_type: 'conversation',
        messages: [
          { role: 'user', content: 'Hi there' },
          { role: 'assistant', content: 'Hello' },
        ],
      }),
    ).toMatchObject({ title: 'Hi there', detail: 'user → assistant' });
    const long = gridText({ task_type: 'text', text: '😀'.repeat(400) });
    expect(long.title.length).toBeLessThanOrEqual(300);
    expect(long.title.endsWith('…')).toBe(true);
    expect(long.title.isWellFormed()).toBe(true);
  });
});

describe('Throttle', () => {
  it('lets one through per interval', () => {
    let now = 0;
    const throttle = new Throttle(100, () => now);
    expect(throttle.due()).toBe(true);
    now = 50;
    expect(throttle.due()).toBe(false);
    now = 100;
    expect(throttle.due()).toBe(true);
  });
});
