import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { ToWorker } from './wire.ts';

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

describe('what a worker started ahead loads before its first slice', () => {
  /** The modules a worker warmed with `warm` has loaded once `done` says so of them. */
  async function loadedOnWarm(
    warm: Extract<ToWorker, { type: 'warm' }>,
    done: (modules: string[]) => boolean,
  ): Promise<string[]> {
    // Without the resolution cache: its hits would pass the recording hook by.
    const worker = new Worker(new URL('./testing/loads-on-warm.ts', import.meta.url), {
      env: { ...process.env, SVC_RESOLVE_CACHE: '' },
    });
    try {
      worker.postMessage(warm satisfies ToWorker);
      return await new Promise<string[]>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`the worker ended (${code}) first`)));
        setTimeout(() => reject(new Error('the module never loaded')), 10_000).unref();
        worker.on('message', (message: { modules?: string[] }) => {
          if (message.modules && done(message.modules)) resolve(message.modules);
        });
      });
    } finally {
      await worker.terminate();
    }
  }
  const has = (modules: string[], end: string): boolean => modules.some((url) => url.endsWith(end));

  it("a file pass's or a merge's: the file tasks, and the engine only when asked", async () => {
    const merge = await loadedOnWarm({ type: 'warm', engine: false, fileTasks: true }, (modules) =>
      has(modules, '/file-pass/tasks.ts'),
    );
    expect(has(merge, '/engine/builtin/engine.ts')).toBe(false);
    const pass = await loadedOnWarm({ type: 'warm', engine: true, fileTasks: true }, (modules) =>
      has(modules, '/engine/builtin/engine.ts'),
    );
    expect(has(pass, '/file-pass/tasks.ts')).toBe(true);
  });

  it("an app's run's: the engine, never the file tasks", async () => {
    const app = await loadedOnWarm({ type: 'warm', engine: true, fileTasks: false }, (modules) =>
      has(modules, '/engine/tokens.ts'),
    );
    expect(has(app, '/file-pass/tasks.ts')).toBe(false);
  });
});
