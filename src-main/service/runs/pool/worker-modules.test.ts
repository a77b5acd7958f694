import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/** The modules an engine worker of the app's runs loads, by URL. */
async function modulesOfAppWorker(): Promise<string[]> {
  const worker = new Worker(new URL('./testing/modules-loaded.ts', import.meta.url));
  try {
    const [loaded] = (await once(worker, 'message')) as [string[]];
    return loaded;
  } finally {
    await worker.terminate();
  }
}

const fromPackage = (loaded: string[], name: string): string[] =>
  loaded.filter((url) => url.includes(`/node_modules/${name}/`));

describe("what an engine worker loads (every module is a worker's start, in every worker)", () => {
  it("runs the app's audits, fixes and refines without zod or a file pass's code", async () => {
    const loaded = await modulesOfAppWorker();
    expect(loaded.some((url) => url.endsWith('/engine/builtin/engine.ts'))).toBe(true);
    expect(fromPackage(loaded, 'zod')).toEqual([]);
    expect(loaded.filter((url) => url.endsWith('/file-pass/tasks.ts'))).toEqual([]);
  });
});
