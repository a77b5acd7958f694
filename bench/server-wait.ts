import { createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn, startSvc, stopSvc } from '../e2e/fixtures.ts';
import { ownerCaller } from './owner-client.ts';
import { readJsonl } from '../src-main/engine/testing/real-data.ts';
import { mib } from './stats.ts';
import { Pinger, PING_MS } from './pinger.ts';

/**
 * A server that never waits: while a dataset of templated rows (GSM8K
 * questions repeated with a numbered suffix, 300 groups of near duplicates:
 * the shape of synthetic data) is imported, scanned, looked at in the
 * Overview, searched, audited, exported, every row dropped and restored,
 * then deleted, through a real `svc serve`, a client asks the cheap
 * `GET /pricing` every 100 ms. How long each answer
 * took, per phase, is how long the server's thread was held (plus the
 * request's own ~1 ms). Goal: the worst ≤ 50 ms.
 */

export async function templatedFile(dir: string, rows: number): Promise<string> {
  const path = join(dir, `templated-${rows}.jsonl`);
  const base = readJsonl<{ question: string; answer: string }>('gsm8k_test_first300.jsonl');
  const out = createWriteStream(path);
  for (let i = 0; i < rows; i++) {
    const row = base[i % base.length] as { question: string; answer: string };
    const variant = Math.floor(i / base.length) + 1;
    const line = JSON.stringify({ question: `${row.question} (${variant})`, answer: row.answer });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return path;
}

export async function benchServerWait(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wait-'));
  const path = await templatedFile(dir, rows);
  const server = await startSvc();
  const pinger = new Pinger(server.baseUrl, server.process.pid);
  try {
    const cookie = await signIn(server);
    const owner = ownerCaller(server, cookie);
    const phase = <T>(name: string, work: () => Promise<T>): Promise<T> => pinger.phase(name, work);
    const until = async (done: () => Promise<boolean>): Promise<void> => {
      while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 200));
    };

    const dataset = await phase('import', () =>
      owner<{ id: string }>('importDataset', { source: { path }, shape: 'gsm8k', name: 'wait' }),
    );
    const id = dataset.id;
    await phase('scan (duplicates, statistics)', () =>
      until(async () => {
        const overview = await owner<{ scanning: boolean; scan: unknown }>('datasetOverview', {
          dataset_id: id,
        });
        return !overview.scanning && overview.scan !== null;
      }),
    );
    // Template siblings are not duplicates (product.md, third round): this data has no
    // duplicate group, and the scan reports its siblings as the `templated_rows` finding.
    const groups = await phase('Overview x5', async () => {
      let seen = '';
      for (let i = 0; i < 5; i++) {
        const overview = await owner<{
          duplicate_groups: { total: number };
          findings: { code: string; rows?: number; groups?: number }[];
        }>('datasetOverview', { dataset_id: id });
        const templated = overview.findings.find((f) => f.code === 'templated_rows');
        seen =
          `${overview.duplicate_groups.total} duplicate groups; ` +
          (templated
            ? `templated_rows: ${templated.rows} rows in ${templated.groups} sets`
            : 'no templated_rows');
      }
      return seen;
    });
    await phase('searches x5', async () => {
      for (const search of ['eggs', 'janet', 'how many', 'ducks lay', '(7)']) {
        await owner('datasetRows', { dataset_id: id, offset: 0, limit: 50, filter: { search } });
      }
    });
    await phase('audit all rows', async () => {
      const run = await owner<{ id: string }>('startRun', {
        dataset_id: id,
        operation: 'audit',
        scope: { kind: 'all' },
      });
      await until(async () => {
        const runs = await owner<{ id: string; finished_at: string | null }[]>('listRuns', {
          dataset_id: id,
        });
        return runs.some((r) => r.id === run.id && r.finished_at !== null);
      });
    });
    await phase('export JSONL', () =>
      owner('exportDataset', {
        dataset_id: id,
        format: 'jsonl',
        path: join(dir, 'export.jsonl'),
      }),
    );
    await phase('drop all rows, restore all', async () => {
      for (const decision of ['dropped', 'restored']) {
        await owner('decide', { dataset_id: id, filter: {}, decision });
      }
    });
    await phase('delete', () => owner('deleteDataset', { dataset_id: id }));
    // A script's request of much text: 100 documents of ~10 KB (GSM8K's questions one after
    // another), sent to /audit three times. Its token count, audit and dataset checks run on the
    // engine's workers (runs/pool/pooled.ts runWhereItFits).
    const { key } = await owner<{ key: string }>('createKey', { name: 'server-wait' });
    const questions = readJsonl<{ question: string }>('gsm8k_test_first300.jsonl').map(
      (row) => row.question,
    );
    const documents = Array.from({ length: 100 }, (_, d) => {
      let text = '';
      for (let q = d; text.length < 10_000; q += 7) text += `${questions[q % questions.length]} `;
      return { task_type: 'text', text: text.trim() };
    });
    const body = JSON.stringify({ data: documents });
    await phase(`/audit of 100 texts of 10 KB x3 (${mib(body.length)})`, async () => {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${server.baseUrl}/audit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        });
        if (!response.ok) throw new Error(`/audit answered ${response.status}`);
        await response.arrayBuffer();
      }
    });

    console.log(
      `\n## server-wait: GET /pricing every ${PING_MS} ms through a dataset's life ` +
        `(${rows.toLocaleString('en-US')} templated rows, ${mib(statSync(path).size)}, ` +
        `${groups})`,
    );
    pinger.print(50);
  } finally {
    await pinger.stop();
    await stopSvc(server);
  }
}
