import { AppError } from '../../src-shared/errors.ts';

/**
 * The signals a long command stops cleanly on: a terminal's Ctrl-C, a
 * scheduler's stop, a terminal closed (an ssh session dropped).
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof SIGNALS)[number];

/** 128 + the signal's number, as a shell reports a command a signal ended. */
const EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * A signal again within this long of the first is the same request sent
 * twice: coreutils' `timeout` signals the command and then its process
 * group, so the command gets two. Later, it is a person insisting.
 */
const REPEAT_MS = 1000;

/** A command that stopped because it was told to: its exit code says which signal. */
export class Interrupted extends AppError {
  readonly exitCode: number;
  constructor(signal: StopSignal, options: { cause?: unknown } = {}) {
    super(
      'cancelled',
      `interrupted (${signal}): stopped before the output was complete, so no output file was written`,
      options,
    );
    this.exitCode = EXIT_CODES[signal];
  }
}

/**
 * Stops a long command (`svc audit|fix|refine|merge`) cleanly on SIGINT,
 * SIGTERM or SIGHUP: the signal aborts the command's work, whose failure
 * path removes its half-written output, and the command ends with one
 * message and exit code whatever error the abort surfaced as on the way (a
 * run, a file read, a worker's task each say it their own way). Kubernetes
 * and Slurm stop a job with SIGTERM before they kill it: without a listener
 * Node exits at once and leaves `OUT.partial` behind. The same signal again
 * within REPEAT_MS is taken for the first; after it, a second Ctrl-C ends
 * the process at once, as a second Ctrl-C is meant to.
 */
export class Interruption {
  readonly #controller = new AbortController();
  #received: StopSignal | undefined;
  #receivedAt = 0;
  readonly #listeners = SIGNALS.map((signal) => {
    const listener = (): void => {
      if (this.#received === undefined) {
        this.#received = signal;
        this.#receivedAt = performance.now();
        this.#controller.abort();
      } else if (performance.now() - this.#receivedAt > REPEAT_MS) {
        process.exit(EXIT_CODES[signal]);
      }
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Aborts the command's remaining work (a failure elsewhere: nothing more is wanted of it). */
  abort(): void {
    this.#controller.abort();
  }

  /** The error to end the command with: the interruption, when a signal caused `error`. */
  errorFor(error: unknown): unknown {
    return this.#received ? new Interrupted(this.#received, { cause: error }) : error;
  }

  /** Stops listening: the signals' default behaviour again. */
  dispose(): void {
    for (const [signal, listener] of this.#listeners) process.off(signal, listener);
  }

  /** Runs a command under an Interruption: its failure the interruption's when a signal caused it. */
  static async around(command: (interruption: Interruption) => Promise<void>): Promise<void> {
    const interruption = new Interruption();
    try {
      await command(interruption);
    } catch (error) {
      throw interruption.errorFor(error);
    } finally {
      interruption.dispose();
    }
  }
}
