import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream, completion } from '../engine/upstream/testing/fake-upstream.ts';
import { balances, ledgerEntries, openHolds } from '../service/billing/billing.ts';
import { openDatabase } from '../store/db.ts';

const repo = join(import.meta.dirname, '..', '..');
const svcBin = join(repo, 'bin', 'svc.js');

async function serve(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [svcBin, 'serve', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
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

  /*
   * A request's hold commits without an fsync and its settle with one
   * (service/billing/billing.ts, "Crash safety"). kill -9 loses neither: the OS holds
   * the written WAL frames. These two kill the server at each side of the
   * settle and check the money either way.
   */
  const createKey = (dataDir: string): string =>
    execFileSync(process.execPath, [svcBin, 'keys', 'create', '--data-dir', dataDir], {
      encoding: 'utf8',
    }).trim();
  const ledgerOf = (dataDir: string) => {
    const db = openDatabase(dataDir);
    try {
      return {
        entries: ledgerEntries(db, 1, { limit: 10_000 }),
        open: openHolds(db, 1),
        balances: balances(db, 1),
      };
    } finally {
      db.close();
    }
  };
  const restart = async (dataDir: string): Promise<void> => {
    const restarted = await serve(dataDir);
    restarted.child.kill('SIGTERM');
    await new Promise((r) => restarted.child.once('exit', r));
  };
  const v1Body = JSON.stringify({
    model: 'svc/audit-1',
    messages: [{ role: 'user', content: 'A short and clean sentence.' }],
  });

  it('kill -9 between hold and settle: the holds are on disk, start-up releases them, nothing is charged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-held-'));
    const key = createKey(dataDir);
    const before = ledgerOf(dataDir).balances;
    // A model server that takes the requests and never answers: the work hangs after the hold.
    const upstream = await startFakeUpstream(() => ({
      ...completion({}),
      delayMs: 600_000,
    }));
    const { child, url } = await serve(dataDir, {
      SVC_UPSTREAM_URL: upstream.url,
      SVC_UPSTREAM_MODEL: 'fake-model',
    });
    const requests = Array.from({ length: 3 }, () =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: v1Body,
      }).then(
        (res) => res.status,
        () => 'died',
      ),
    );
    while (upstream.requests.length < 3) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await Promise.all(requests)).toEqual(['died', 'died', 'died']);
    await upstream.close();

    // The three holds were written (unsynced, yet on disk after a kill -9) and are open.
    const crashed = ledgerOf(dataDir);
    expect(crashed.open).toHaveLength(3);
    expect(crashed.entries.filter((e) => e.kind === 'charge')).toHaveLength(0);
    expect(crashed.balances.available_micro).toBe(
      before.available_micro - crashed.open.reduce((n, h) => n + h.amount_micro, 0),
    );

    await restart(dataDir);
    const after = ledgerOf(dataDir);
    expect(after.open).toHaveLength(0);
    expect(after.balances).toEqual(before);
    const releases = after.entries.filter((e) => e.memo === 'released at startup');
    expect(releases.map((e) => e.hold_id).sort()).toEqual(crashed.open.map((h) => h.id).sort());
  }, 60_000);

  it('kill -9 right after a settle: every charge a client was told of is in the ledger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-settled-'));
    const key = createKey(dataDir);
    const before = ledgerOf(dataDir).balances;
    const { child, url } = await serve(dataDir);
    const told: { requestId: string; micro: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: v1Body,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { usage: { cost_usd: number } };
      told.push({
        requestId: res.headers.get('x-request-id') ?? '',
        micro: Math.round(body.usage.cost_usd * 1e6),
      });
    }
    // No pause: the last answer has just arrived.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    for (const state of [ledgerOf(dataDir), (await restart(dataDir), ledgerOf(dataDir))]) {
      const charges = state.entries.filter((e) => e.kind === 'charge');
      expect(
        charges.map((e) => ({ requestId: e.request_id, micro: e.amount_micro })).reverse(),
      ).toEqual(told);
      expect(state.open).toHaveLength(0);
      const charged = told.reduce((n, t) => n + t.micro, 0);
      expect(state.balances).toEqual({
        balance_micro: before.balance_micro - charged,
        held_micro: 0,
        available_micro: before.available_micro - charged,
      });
    }
  }, 60_000);
});
