import { describe, expect, it } from 'vitest';
import type { GridRow } from '../../../src-shared/owner/datasets.ts';
import { statusSummary } from './status-summary.ts';

const row = (fields: Partial<GridRow>): GridRow => ({
  index: 0,
  source_row: 1,
  task_type: 'text',
  title: '',
  detail: '',
  passed: true,
  score: 1,
  failed_checks: [],
  flagged: false,
  changed: false,
  edited: false,
  unverified: false,
  decision: null,
  dropped: false,
  ...fields,
});

describe('statusSummary', () => {
  it('says every badge, those cut off at the column’s width included', () => {
    expect(
      statusSummary(
        row({
          passed: false,
          failed_checks: ['near_duplicate', 'pii', 'format'],
          flagged: true,
          changed: true,
          edited: true,
          dropped: true,
          decision: 'accepted',
        }),
      ),
    ).toBe('failed: near_duplicate, pii, format · flagged · edited · dropped · accepted');
    expect(statusSummary(row({ passed: null }))).toBe('not audited');
    expect(statusSummary(row({ changed: true, decision: 'rejected' }))).toBe(
      'passed · changed · rejected',
    );
    expect(statusSummary(row({ unverified: true }))).toMatch(/^undecided/);
  });
});
