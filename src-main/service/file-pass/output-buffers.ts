import { sliceBytes } from './line-slices.ts';

/**
 * Shared buffers the workers write a slice's output into (tasks.ts), each
 * given back once its bytes are written out, so that a run of any length
 * uses a few dozen of them. A buffer received from a worker counts against
 * this thread's external memory: one per slice, new each time, made V8 run a
 * full collection every ~15 slices (a third of the main thread's CPU).
 */
export class OutputBuffers {
  readonly #free: SharedArrayBuffer[] = [];
  readonly #bytes: number;

  /** A slice's output is ~2-3x its input (verdicts added): room for 4x; larger goes apart. */
  constructor(bytes = Math.max(4 * sliceBytes(), 1 << 16)) {
    this.#bytes = bytes;
  }

  take(): SharedArrayBuffer {
    return this.#free.pop() ?? new SharedArrayBuffer(this.#bytes);
  }

  give(buffer: SharedArrayBuffer): void {
    this.#free.push(buffer);
  }
}
