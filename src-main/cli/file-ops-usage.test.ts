import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonl } from '../engine/testing/real-data.ts';
import { balances, charge, OWNER_ACCOUNT_ID } from '../service/billing/billing.ts';
import { listHistory } from '../service/runs/history.ts';
import { openDatabase } from '../store/db.ts';
import { ledgerEntries } from '../store/ledger.ts';
import { usageOfRun } from '../store/owner-usage.ts';

/** `svc audit|fix|refine FILE` is the owner's own run: usage recorded, no credit spent, with history. */

const repo = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'svc-cli-billing-'));

function svc(dataDir: string, ...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [join(repo, 'bin', 'svc.js'), ...args, '--data-dir', dataDir],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** GSM8K's questions, replicated (and made distinct) to `count` rows. */
function gsm8kFile(name: string, count: number): string {
  const base = readJsonl<{ question: string; answer: string }>('gsm8k_test_first300.jsonl');
  const path = join(work, name);
  const rows = Array.from({ length: count }, (_, i) => {
    const row = base[i % base.length]!;
    return JSON.stringify({ question: `${row.question} (#${i})`, answer: row.answer });
  });
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

const chargesOf = (dataDir: string) => {
  const db = openDatabase(dataDir);
  try {
    return ledgerEntries(db, OWNER_ACCOUNT_ID, { limit: 100 }).filter((e) => e.kind === 'charge');
  } finally {
    db.close();
  }
};

describe("svc audit|fix|refine FILE is the owner's own run", () => {
  it('records its usage per model, charges nothing, and keeps refine history', () => {
    const dataDir = join(work, 'usage');
    const run = svc(dataDir, 'refine', gsm8kFile('g300.jsonl', 300));
    expect(run.code, run.stderr).toBe(0);
    const printed =
      /usage: \$(\d+\.\d{6}) at the rates in force, not charged \(your own run, (cli_[0-9a-f]+)\)/.exec(
        run.stderr,
      );
    expect(printed).not.toBeNull();
    expect(chargesOf(dataDir)).toEqual([]);
    const db = openDatabase(dataDir);
    expect(balances(db, OWNER_ACCOUNT_ID).balance_micro).toBe(5_000_000);
    const usage = usageOfRun(db, printed?.[2] ?? '');
    expect(usage.cost_micro).toBe(Math.round(Number(printed?.[1]) * 1e6));
    expect(usage.input_tokens).toBeGreaterThan(0);
    const models = db
      .prepare('SELECT DISTINCT model FROM owner_usage WHERE run_id = ? ORDER BY model')
      .pluck()
      .all(printed?.[2]);
    expect(models).toEqual(['svc-audit-1', 'svc-fix-1']);
    const history = listHistory(db, { limit: 10 });
    expect(history.map((h) => [h.source, h.operation, h.samples])).toEqual([
      ['cli', 'refine', 300],
    ]);
    db.close();
  });

  it('runs with no credit left', () => {
    const dataDir = join(work, 'broke');
    const db = openDatabase(dataDir);
    charge(db, { accountId: OWNER_ACCOUNT_ID, chargeMicro: 5_000_000, memo: 'spent elsewhere' });
    db.close();
    const run = svc(dataDir, 'audit', gsm8kFile('g600.jsonl', 600));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(600);
    expect(run.stderr).not.toMatch(/credit/);
  });
});
