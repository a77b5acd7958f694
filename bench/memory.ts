import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { formatRow, mib } from './stats.ts';

/**
 * The server's memory under load: `svc serve` in its own process (so its RSS
 * is its own), 20,000 mixed requests from 8 concurrent clients (the
 * interface's routes, plain and streamed, successes and refusals), RSS read
 * from /proc after 1,000 requests and at the end, then after 5 s idle. The
 * issue's bar: the end within 1.5x of the first 1,000.
 */

const repoRoot = join(import.meta.dirname, '..');
const svc = (args: string[]): string =>
  execFileSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], {
    encoding: 'utf8',
  }).trim();

const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};

const sample = (i: number) =>
  JSON.stringify([
    {
      task_type: 'question_answer',
      question: `Tom has ${i} apples and buys 3 more. How many apples does he have?`,
      answer: `${i} + 3 = ${i + 3}\n#### ${i + 3}`,
      meta: { id: i },
    },
  ]);

export async function serverUnderLoad(total: number, concurrency: number, v8Defaults: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-memory-'));
  svc(['settings', 'set', 'limits.requests_per_minute_native', '100000', '--data-dir', dataDir]);
  svc(['settings', 'set', 'limits.requests_per_minute_v1', '100000', '--data-dir', dataDir]);
  const key = svc(['keys', 'create', '--name', 'memory', '--data-dir', dataDir]);
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, SVC_V8_DEFAULTS: v8Defaults ? '1' : '0' },
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', () => reject(new Error('svc serve exited')));
  });
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const requests: (() => Promise<Response>)[] = [
    () => fetch(`${base}/pricing`),
    () => fetch(`${base}/v1/models`, { headers: auth }),
    () => fetch(`${base}/audit`, { method: 'POST', headers: auth, body: `{"data":${sample(1)}}` }),
    () =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          model: 'svc/refine-1',
          messages: [{ role: 'user', content: sample(2) }],
        }),
      }),
    () =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          model: 'svc/audit-1',
          stream: true,
          messages: [{ role: 'user', content: sample(3) }],
        }),
      }),
    () =>
      fetch(`${base}/v1/responses`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ model: 'svc/fix-1', input: sample(4) }),
      }),
    () => fetch(`${base}/audit`, { method: 'POST', headers: auth, body: '{"data": [' }),
    () => fetch(`${base}/v1/models`, { headers: { authorization: 'Bearer svc_wrong' } }),
  ];
  const marks = new Map<number, number>();
  let sent = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        const n = sent++;
        const res = await (requests[n % requests.length] as () => Promise<Response>)();
        await res.arrayBuffer();
        if (res.status >= 500) failures++;
        const done = n + 1;
        if (done === 1_000 || done === 5_000 || done === 10_000 || done === total) {
          marks.set(done, rssOf(child.pid ?? 0));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const idle = rssOf(child.pid ?? 0);
  child.kill('SIGTERM');
  return { marks, idle, rps: total / seconds, failures };
}

/** `svc serve` as shipped beside the same server on V8's defaults (`SVC_V8_DEFAULTS=1`). */
export async function benchMemory(total = 20_000, concurrency = 8): Promise<void> {
  for (const v8Defaults of [false, true]) {
    const { marks, idle, rps, failures } = await serverUnderLoad(total, concurrency, v8Defaults);
    printMemory(v8Defaults ? 'svc serve on V8 defaults' : 'svc serve', total, concurrency, {
      marks,
      idle,
      rps,
      failures,
    });
  }
}

function printMemory(
  name: string,
  total: number,
  concurrency: number,
  run: { marks: Map<number, number>; idle: number; rps: number; failures: number },
): void {
  const { marks, idle } = run;
  const first = marks.get(1_000) ?? 0;
  const last = marks.get(total) ?? 0;
  console.log(
    `\n## Server memory, ${name}: ${total.toLocaleString('en-US')} mixed requests ` +
      `(${concurrency} clients, ${run.rps.toFixed(0)} req/s, ${run.failures} 5xx)\n`,
  );
  const widths = [16, 12, 16];
  console.log(formatRow(['after', 'RSS', 'vs after 1,000'], widths));
  for (const [count, rss] of [...marks.entries()].sort((a, b) => a[0] - b[0])) {
    console.log(
      formatRow(
        [`${count.toLocaleString('en-US')} requests`, mib(rss), `${(rss / first).toFixed(2)}x`],
        widths,
      ),
    );
  }
  console.log(formatRow(['5 s idle', mib(idle), `${(idle / first).toFixed(2)}x`], widths));
  console.log(`\nend / first 1,000: ${(last / first).toFixed(2)}x (bar: 1.5x)`);
}

if (import.meta.main) await benchMemory(Number(process.env.BENCH_MEMORY_REQUESTS ?? 20_000));
