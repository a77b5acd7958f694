import type { OperationRequest, OperationResult } from './contract.ts';

/**
 * A request run in this thread with the builtin backend, the engine loaded
 * at the first such run: an engine pool's worker that only scans or merges
 * a file (`svc merge`, the dataset checks' pass) never runs it, and loading
 * it (the checks, the tokenizer's code) was ~0.2 s of CPU of each worker's
 * start.
 */
export async function runBuiltinInThread(
  request: OperationRequest,
  signal: AbortSignal,
): Promise<OperationResult> {
  const [{ builtinBackend }, { runOperationInThread }] = await loadEngine();
  return runOperationInThread(request, { backend: builtinBackend, signal });
}

const loadEngine = () =>
  Promise.all([
    import('../../engine/builtin/backend.ts').then(async (backend) => {
      await backend.loadBuiltinEngine();
      return backend;
    }),
    import('./operation.ts'),
  ]);

/**
 * Loads the engine and builds its tokenizer's tables (~0.5 s of CPU in all)
 * before the first run: a worker started ahead of a pass that will run the
 * engine (cli/pool-ahead.ts) would otherwise wait for the main thread's
 * first task, then pay this at its first run.
 */
export async function warmBuiltin(): Promise<void> {
  await loadEngine();
  const { warmTokenizer } = await import('../../engine/tokens.ts');
  warmTokenizer();
}
