import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonl } from '../engine/testing/real-data.ts';
import { balances, charge, OWNER_ACCOUNT_ID } from '../service/billing.ts';
import { listHistory } from '../service/history.ts';
import { openDatabase } from '../store/db.ts';
import { ledgerEntries } from '../store/ledger.ts';

/** `svc audit|fix|refine FILE` runs on the owner's account: charged as it goes, with history. */

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

describe('svc audit|fix|refine FILE bills the local account', () => {
  it('charges what it prints, as one run id, and keeps refine history', () => {
    const dataDir = join(work, 'paid');
    const run = svc(dataDir, 'refine', gsm8kFile('g300.jsonl', 300));
    expect(run.code, run.stderr).toBe(0);
    const printed = /cost: \$(\d+\.\d\d) charged to the local account as (cli_[0-9a-f]+)/.exec(
      run.stderr,
    );
    expect(printed).not.toBeNull();
    const charges = chargesOf(dataDir);
    expect(charges.length).toBeGreaterThan(0);
    expect(charges.every((c) => c.request_id === printed?.[2])).toBe(true);
    const micro = charges.reduce((sum, c) => sum + c.amount_micro, 0);
    expect(micro).toBe(Math.round(Number(printed?.[1]) * 1e6));
    const db = openDatabase(dataDir);
    expect(balances(db, OWNER_ACCOUNT_ID).balance_micro).toBe(5_000_000 - micro);
    const history = listHistory(db, { limit: 10 });
    expect(history.map((h) => [h.source, h.operation, h.samples])).toEqual([
      ['cli', 'refine', 300],
    ]);
    db.close();
  });

  it('refuses to start without a cent of credit, writing nothing', () => {
    const dataDir = join(work, 'broke');
    const db = openDatabase(dataDir);
    charge(db, { accountId: OWNER_ACCOUNT_ID, chargeMicro: 4_995_000, memo: 'spent elsewhere' });
    db.close();
    const run = svc(dataDir, 'audit', gsm8kFile('g10.jsonl', 10));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/insufficient credit: \$0\.005 is available; add credit/);
  });

  it('stops when the credit runs out; what it wrote was paid for', () => {
    // what the first batch of 500 costs (the builtin engine is deterministic)...
    const probeDir = join(work, 'probe');
    expect(svc(probeDir, 'audit', gsm8kFile('g500.jsonl', 500)).code).toBe(0);
    const firstBatch = chargesOf(probeDir).reduce((sum, c) => sum + c.amount_micro, 0);
    // ...is all the credit left, with half a cent to spare: the second batch cannot be paid
    const dataDir = join(work, 'short');
    const db = openDatabase(dataDir);
    charge(db, {
      accountId: OWNER_ACCOUNT_ID,
      chargeMicro: 5_000_000 - firstBatch - 5_000,
      memo: 'spent elsewhere',
    });
    db.close();
    const run = svc(dataDir, 'audit', gsm8kFile('g1000.jsonl', 1000));
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(500);
    expect(run.stderr).toMatch(
      /credit ran out after 500 samples: .* The samples written were charged \$\d+\.\d\d/,
    );
  });
});
