import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import { CHECKS_JSON } from '../../store/datasets-rows.ts';
import {
  setUnverdictedRowChecks,
  verdictInputs,
  type VerdictInputRecord,
} from '../../store/datasets-scan.ts';
import { displayedVerdict, verdictColumns } from '../datasets/row-state.ts';
import { createHarness, dataset } from '../datasets/testing/harness.ts';
import type { DatasetVerdicts } from './core.ts';

/**
 * A scan writes the checks of a row holding no verdict without reading the
 * row (`setUnverdictedRowChecks`: its verdict columns, from their covering
 * index) and every other row's after reading its verdict: either way each
 * row's verdict columns are those its audit, reaudit, decision and checks
 * make.
 */

const NO_VERDICT = `passed = NULL, score = NULL, failed_checks = '', unverified = 0,
  error_codes = '', warning_codes = '', warning_checks = ''`;

describe('the checks of a row with no verdict, written without a read', () => {
  it('are written only to a row with the verdict columns of none and other checks', async () => {
    const h = createHarness();
    const path = join(h.dir, 'rows.jsonl');
    writeFileSync(path, '{"task_type":"text","text":"One row."}\n');
    const ds = await h.importFile(path, 'sample');
    await h.scanned(ds.id);
    const checks = JSON.stringify({ contamination: { passed: true, score: 1, issues: [] } });
    const stored = (): unknown =>
      h.db
        .prepare(`SELECT ${CHECKS_JSON} FROM dataset_rows WHERE dataset_id = ?`)
        .pluck()
        .get(ds.id);
    const clear = h.db.prepare('DELETE FROM dataset_row_checks WHERE dataset_id = ?');
    const states: [string, string][] = [
      ['passed', 'passed = 1'],
      ['a score', 'score = 0.5'],
      ['a failed check', `failed_checks = ',x,'`],
      ['unverified', 'unverified = 1'],
      ['an error', `error_codes = ',x,'`],
      ['a warning', `warning_codes = ',x,'`],
      ['a warned check', `warning_checks = ',x,'`],
    ];
    for (const [state, set] of states) {
      h.db.prepare(`UPDATE dataset_rows SET ${NO_VERDICT}, ${set} WHERE dataset_id = ?`).run(ds.id);
      clear.run(ds.id);
      expect(setUnverdictedRowChecks(h.db, ds.id, 0, checks), state).toBe(false);
      expect(stored(), state).toBeNull();
    }
    h.db.prepare(`UPDATE dataset_rows SET ${NO_VERDICT} WHERE dataset_id = ?`).run(ds.id);
    clear.run(ds.id);
    expect(setUnverdictedRowChecks(h.db, ds.id, 0, checks)).toBe(true);
    expect(stored()).toBe(checks);
    // Already these checks: nothing written, and the caller reads the row to see so.
    expect(setUnverdictedRowChecks(h.db, ds.id, 0, checks)).toBe(false);
    expect(setUnverdictedRowChecks(h.db, ds.id, 1, checks)).toBe(false);
  });

  it("leaves every row's verdict columns as its audit and checks make them, audited or not", async () => {
    const h = createHarness({ onDisk: true });
    const rows = readFileSync(dataset('gsm8k_test_first300.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, 120);
    // Copies of rows 0-19 (failing `duplicates`) after benchmark items (warned by `contamination`).
    const path = join(h.dir, 'gsm.jsonl');
    writeFileSync(path, [...rows, ...rows.slice(0, 20)].join('\n') + '\n');
    const ds = await h.importFile(path, 'gsm8k');
    await h.scanned(ds.id);
    const everyRow = Array.from({ length: 140 }, (_, i) => i);
    const expectColumnsFollow = (): VerdictInputRecord[] => {
      const stored = verdictInputs(h.db, ds.id, everyRow);
      for (const row of stored) {
        const { row_index, audit_json, reaudit_json, decision, checks_json, ...columns } = row;
        const verdict = displayedVerdict(
          JSON.parse(audit_json ?? 'null') as AuditBlock | null,
          JSON.parse(reaudit_json ?? 'null') as AuditBlock | null,
          decision,
          JSON.parse(checks_json ?? 'null') as DatasetVerdicts | null,
        );
        expect(columns, `row ${row_index}`).toEqual(verdictColumns(verdict));
      }
      return stored;
    };
    const fresh = expectColumnsFollow();
    expect(fresh.filter((row) => row.checks_json?.includes('contamination'))).toHaveLength(140);
    expect(fresh.filter((row) => row.failed_checks === ',duplicates,')).toHaveLength(20);

    // Half the rows audited, then a copy's original dropped: the rescan moves its issue.
    const run = await h.finished(
      await h.call('startRun', {
        dataset_id: ds.id,
        operation: 'audit',
        scope: { kind: 'selection', indices: Array.from({ length: 70 }, (_, i) => i * 2) },
      }),
    );
    expect(run.status).toBe('done');
    await h.scanned(ds.id);
    await h.call('decide', { dataset_id: ds.id, indices: [3], decision: 'dropped' });
    await h.scanned(ds.id);
    const after = expectColumnsFollow();
    expect(after.filter((row) => row.audit_json !== null)).toHaveLength(70);
    // What the write without a read stands on: a row audited has its verdict columns set.
    expect(after.filter((row) => row.audit_json !== null && row.passed === null)).toEqual([]);
    // The rows never audited that failed nothing (the dropped one aside) keep no verdict.
    const unaudited = after.filter(
      (row) => row.audit_json === null && row.failed_checks === '' && row.row_index !== 3,
    );
    expect(unaudited).toHaveLength(60);
    for (const row of unaudited) {
      expect(row.checks_json, `row ${row.row_index}`).toContain('contamination');
      expect(row.passed).toBeNull();
    }
  }, 60_000);
});
