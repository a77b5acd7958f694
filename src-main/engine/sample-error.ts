/*
 * Its own module: the threads that only pass errors on (the grid's worker,
 * service/threads/wire-error.ts) check for it without loading the engine.
 */

/** An unexpected failure of the engine on one sample of a batch (the original error is its cause). */
export class SampleError extends Error {
  readonly sampleIndex: number;
  constructor(sampleIndex: number, count: number, cause: unknown) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`the engine failed on sample ${sampleIndex + 1} of ${count} in this batch: ${reason}`, {
      cause,
    });
    this.name = 'SampleError';
    this.sampleIndex = sampleIndex;
  }
}
