import { startServer } from '../src-main/http/server.ts';
import { createServiceContext } from '../src-main/service/context.ts';
import { openDatabase } from '../src-main/store/db.ts';
import { formatRow, percentile } from './stats.ts';

/** Requests per second and latency of the open read routes over real loopback HTTP. */
export async function benchHttp(): Promise<void> {
  const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'bench');
  const server = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
  const widths = [22, 10, 10, 10, 12];
  console.log('\n## service: loopback HTTP (one process, keep-alive, 8 concurrent clients)');
  console.log(formatRow(['route', 'requests', 'req/s', 'p50 ms', 'p99 ms'], widths));
  for (const path of ['/pricing', '/v1/models', '/v1/models/svc/audit']) {
    const total = 4000;
    const concurrency = 8;
    const latencies: number[] = [];
    let sent = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent < total) {
          sent += 1;
          const t0 = performance.now();
          const res = await fetch(`${server.url}${path}`);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      formatRow(
        [
          path,
          latencies.length,
          latencies.length / seconds,
          percentile(latencies, 50),
          percentile(latencies, 99),
        ],
        widths,
      ),
    );
  }
  await server.close();
}
