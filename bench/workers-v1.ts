import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gsm8k, oasst } from '../src-main/engine/testing/real-data.ts';
import { writeSettingsSection } from '../src-main/store/settings.ts';
import { startBenchServer } from './bench-server.ts';
import { formatRow, percentile } from './stats.ts';

/**
 * `/v1` with one sample while heavy audits run on the same server (two
 * clients sending native `/audit` requests of 100 real samples without
 * pause): its latency with the engine on the main thread (engine.workers 0)
 * and on the pool (one per core). The one-sample requests themselves run in
 * the calling thread either way; what changes is what they wait behind.
 * Client and server share this process, as in bench/http.ts.
 */
export async function benchV1UnderLoad(cores: number, requests = 400): Promise<void> {
  console.log(
    `\n/v1 one sample (${requests} requests, one client) while 2 clients send /audit x100`,
  );
  const widths = [22, 10, 10, 10, 14];
  console.log(formatRow(['engine', 'p50 ms', 'p99 ms', 'max ms', '/audit done'], widths));
  for (const workers of [0, cores]) {
    const server = await startBenchServer(mkdtempSync(join(tmpdir(), 'svc-bench-workers-')), (db) =>
      writeSettingsSection(db, 'engine', { workers }),
    );
    const { key } = server;
    const post = async (path: string, body: string): Promise<void> => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    };
    const heavy = JSON.stringify({ data: [...oasst(), ...gsm8k()].slice(0, 100) });
    const one = JSON.stringify({
      model: 'svc/audit-1',
      messages: [{ role: 'user', content: JSON.stringify(gsm8k().slice(0, 1)) }],
    });
    // Warm: the workers started, the routes compiled.
    await post('/audit', heavy);
    for (let i = 0; i < 20; i++) await post('/v1/chat/completions', one);
    let running = true;
    let audits = 0;
    const load = Array.from({ length: 2 }, async () => {
      while (running) {
        await post('/audit', heavy);
        audits++;
      }
    });
    const latencies: number[] = [];
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      await post('/v1/chat/completions', one);
      latencies.push(performance.now() - started);
    }
    running = false;
    await Promise.all(load);
    latencies.sort((a, b) => a - b);
    console.log(
      formatRow(
        [
          workers === 0 ? 'main thread' : `${workers} workers`,
          percentile(latencies, 50).toFixed(1),
          percentile(latencies, 99).toFixed(1),
          (latencies.at(-1) ?? NaN).toFixed(1),
          audits,
        ],
        widths,
      ),
    );
    await server.close();
  }
}
