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
  const [{ builtinBackend }, { runOperationInThread }] = await Promise.all([
    import('../../engine/builtin/backend.ts'),
    import('./operation.ts'),
  ]);
  return runOperationInThread(request, { backend: builtinBackend, signal });
}
