import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { balances, ledgerEntries, openHolds } from '../service/billing.ts';
import { openDatabase } from '../store/db.ts';

const repo = join(import.meta.dirname, '..', '..');
const svcBin = join(repo, 'bin', 'svc.js');

async function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [svcBin, 'serve', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    const match = /^listening on (\S+)$/.exec(line);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error('svc serve did not start');
}

describe('crash recovery', () => {
  it('kill -9 under load: after a restart no hold is open and no settled charge is lost', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const key = execFileSync(process.execPath, [svcBin, 'keys', 'create', '--data-dir', dataDir], {
      encoding: 'utf8',
    }).trim();
    const { child, url } = await serve(dataDir);
    const body = JSON.stringify({
      data: Array.from({ length: 100 }, (_, i) => ({
        task_type: 'text',
        text: `Sample ${i}: <b>bold</b>  text.`,
      })),
    });
    let succeeded = 0;
    const inFlight: Promise<void>[] = [];
    const deadline = Date.now() + 1500;
    let killed = false;
    // 8 clients hammer /fix; the server is killed with SIGKILL while they do.
    for (let client = 0; client < 8; client++) {
      inFlight.push(
        (async () => {
          for (;;) {
            if (killed as boolean) return;
            try {
              const res = await fetch(`${url}/fix`, {
                method: 'POST',
                headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
                body,
              });
              if (res.status === 200) {
                await res.json();
                succeeded++;
              }
            } catch {
              return; // the server died under us
            }
          }
        })(),
      );
    }
    while (Date.now() < deadline || succeeded < 3) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    killed = true;
    await Promise.all(inFlight);

    // Before the restart the crash may have left holds open.
    const before = openDatabase(dataDir);
    const chargesBefore = ledgerEntries(before, 1, { limit: 10_000 }).filter(
      (e) => e.kind === 'charge',
    ).length;
    before.close();
    expect(chargesBefore).toBeGreaterThanOrEqual(succeeded);

    const restarted = await serve(dataDir);
    restarted.child.kill('SIGTERM');
    await new Promise((r) => restarted.child.once('exit', r));

    const db = openDatabase(dataDir);
    const entries = ledgerEntries(db, 1, { limit: 10_000 });
    expect(openHolds(db, 1)).toHaveLength(0);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(chargesBefore);
    const granted = entries
      .filter((e) => e.kind === 'grant')
      .reduce((n, e) => n + e.amount_micro, 0);
    const charged = entries
      .filter((e) => e.kind === 'charge')
      .reduce((n, e) => n + e.amount_micro, 0);
    expect(balances(db, 1)).toEqual({
      balance_micro: granted - charged,
      held_micro: 0,
      available_micro: granted - charged,
    });
    db.close();
  }, 60_000);
});
