import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { runOperation } from '../src-main/service/runs/operation.ts';
import { gsm8k } from '../src-main/engine/testing/real-data.ts';
import { startBenchServer } from './bench-server.ts';
import { startPeer } from './http-peer.ts';
import { formatRow, mib, percentile } from './stats.ts';

interface Scenario {
  name: string;
  path: string;
  body: string;
  /** The same work run on the engine alone, without HTTP, auth or billing. */
  engineOnly: () => Promise<unknown>;
}

async function measure(run: () => Promise<number | undefined>, total: number, concurrency: number) {
  const latencies: number[] = [];
  const serverMs: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        const t0 = performance.now();
        const server = await run();
        latencies.push(performance.now() - t0);
        if (typeof server === 'number') serverMs.push(server);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const meanServer = serverMs.reduce((a, b) => a + b, 0) / Math.max(1, serverMs.length);
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    serverMs: meanServer,
  };
}

/**
 * The service over real loopback HTTP (client and server in this process,
 * keep-alive): requests/s and latency for `/v1` with one sample and `/audit`
 * with 100 (real GSM8K items), beside the engine alone doing the same work,
 * so the service's own overhead (HTTP, auth, rate limit, validation, hold and
 * settlement in SQLite: one fsync'd commit per request) shows as the difference.
 */
export async function benchHttp(): Promise<void> {
  const server = await startBenchServer();
  const { key } = server;
  const items = gsm8k();
  const one = items.slice(0, 1);
  const hundred = items.slice(0, 100);
  const scenarios: Scenario[] = [
    {
      name: '/v1 chat, 1 sample',
      path: '/v1/chat/completions',
      body: JSON.stringify({
        model: 'svc/audit-1',
        messages: [{ role: 'user', content: JSON.stringify(one) }],
      }),
      engineOnly: () =>
        runOperation(
          { operation: 'audit', samples: one, config: { votes: 1 } },
          { backend: builtinBackend },
        ),
    },
    {
      name: '/audit, 100 samples',
      path: '/audit',
      body: JSON.stringify({ data: hundred }),
      engineOnly: () =>
        runOperation(
          { operation: 'audit', samples: hundred, config: { votes: 1 } },
          { backend: builtinBackend },
        ),
    },
  ];
  const widths = [22, 10, 10, 10, 10, 12, 12, 12];
  console.log('\n## service: loopback HTTP, keep-alive, 4 concurrent clients in the same process');
  console.log('(client and server share the CPU: req/s is a floor; server ms is measured inside)');
  console.log(
    formatRow(
      ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'server ms', 'engine ms', 'service ms'],
      widths,
    ),
  );
  for (const scenario of scenarios) {
    const total = scenario.path === '/audit' ? 200 : 2000;
    const call = async () => {
      const res = await fetch(`${server.url}${scenario.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: scenario.body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${scenario.path} answered ${res.status}`);
      return Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
    };
    // throughput and latency under 4 concurrent clients; the time breakdown with one client
    const http = await measure(call, total, 4);
    const alone = await measure(call, Math.ceil(total / 4), 1);
    const engine = await measure(
      async () => {
        await scenario.engineOnly();
        return undefined;
      },
      total,
      1,
    );
    const engineMs = 1000 / engine.rps;
    // server ms: time inside the server per request (Server-Timing) with one client;
    // service ms = server - engine: HTTP body, auth, rate limit, validation, token
    // estimate, hold (unsynced) and settlement (one fsync'd SQLite commit), response JSON.
    console.log(
      formatRow(
        [
          scenario.name,
          total,
          http.rps,
          http.p50,
          http.p99,
          alone.serverMs.toFixed(2),
          engineMs.toFixed(2),
          (alone.serverMs - engineMs).toFixed(2),
        ],
        widths,
      ),
    );
  }
  const { rss, heapUsed } = process.memoryUsage();
  console.log(`memory after the service bench: rss ${mib(rss)}, heap ${mib(heapUsed)}`);
  await server.close();
  await benchV1VsPeer();
}

/**
 * `/v1/chat/completions` with one sample against its bare Hono peer
 * (bench/http-peer.ts: JSON parse, zod validation, one SQLite write, WAL with
 * synchronous=FULL like the service's store), each on its own data directory
 * in the same temporary folder. Rounds alternate between the two so that a
 * noisy neighbour or a busy disk weighs on both alike; the ratio is the
 * service's throughput over the peer's (issue 14's goal: at least 50%).
 */
export async function benchV1VsPeer(rounds = 6, perRound = 300, concurrency = 4): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-v1-'));
  const server = await startBenchServer(join(dataDir, 'service'));
  const { key } = server;
  const peer = await startPeer(dataDir);
  const body = JSON.stringify({
    model: 'svc/audit-1',
    messages: [{ role: 'user', content: JSON.stringify(gsm8k().slice(0, 1)) }],
  });
  const caller = (base: string) => async () => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${base} answered ${res.status}`);
    return undefined;
  };
  const totals = {
    service: { n: 0, s: 0, lat: [] as number[] },
    peer: { n: 0, s: 0, lat: [] as number[] },
  };
  // one warm-up round each, not counted
  await measure(caller(server.url), 50, concurrency);
  await measure(caller(peer.url), 50, concurrency);
  for (let round = 0; round < rounds; round++) {
    for (const [name, base] of [
      ['peer', peer.url],
      ['service', server.url],
    ] as const) {
      const m = await measure(caller(base), perRound, concurrency);
      totals[name].n += perRound;
      totals[name].s += perRound / m.rps;
      totals[name].lat.push(m.p50);
    }
  }
  await server.close();
  await peer.close();
  const rps = (t: { n: number; s: number }) => t.n / t.s;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const ratio = rps(totals.service) / rps(totals.peer);
  const widths = [34, 10, 10, 12];
  console.log(
    `\n## /v1, one sample, vs a bare Hono peer (JSON + zod + one FULL-sync SQLite write); ` +
      `${rounds} alternating rounds of ${perRound}, ${concurrency} clients`,
  );
  console.log(formatRow(['server', 'requests', 'req/s', 'median p50 ms'], widths));
  console.log(
    formatRow(
      ['bare Hono peer', totals.peer.n, rps(totals.peer), median(totals.peer.lat).toFixed(2)],
      widths,
    ),
  );
  console.log(
    formatRow(
      [
        'svc /v1/chat/completions',
        totals.service.n,
        rps(totals.service),
        median(totals.service.lat).toFixed(2),
      ],
      widths,
    ),
  );
  console.log(`/v1 throughput = ${(ratio * 100).toFixed(0)}% of the peer's (goal: >= 50%)`);
  return ratio;
}
