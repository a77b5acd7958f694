import { Worker } from 'node:worker_threads';
import { workerScript } from '../../engine/worker-script.ts';
import { listenToBulk } from '../../store/bulk-writes.ts';
import { autocheckpointPages, setAutocheckpointPages } from '../../store/checkpoint.ts';
import type { Db } from '../../store/db.ts';

/**
 * Keeps the app database's WAL checkpointed from a thread of its own, so the
 * main thread never copies it. SQLite's automatic checkpoint runs in the
 * connection that commits past 1,000 WAL pages: on the main thread that was
 * every commit of a scan's verdicts or a run's results now and then, each
 * copying pages into the database and fsyncing it. On a large dataset with
 * the disk busy (a search index being built, a file being exported) one
 * such commit held the server for 0.3-0.6 s, the worst waits measured at
 * 1M rows (the CPU profile shows no sample for that long inside the
 * commit: the thread waits in the kernel).
 *
 * Started by the processes that serve the app (`svc serve`, the desktop app)
 * for a database on disk: it turns the main connection's automatic
 * checkpoints off and runs PASSIVE checkpoints (they never wait for a reader
 * or a writer) soon after writes, backing off to one every few seconds when
 * there are none. Should the thread fail, automatic checkpoints are turned
 * back on: the WAL never grows unbounded.
 */

export interface KeeperOptions {
  file: string;
  /** How soon to look again after a checkpoint copied something. */
  minMs: number;
  /** The longest wait between two looks when nothing is written. */
  maxMs: number;
}

export type KeeperMessage = 'now' | 'stop' | 'pause' | 'resume';

/** What a checkpoint did (SQLite's report): sent when it differs from the last. */
export interface KeeperReport {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * At most one checkpoint a second while writes come in (each ends in an
 * fsync of the database, which a busy disk makes every writer pay for), one
 * every 5 s at most when none do.
 */
const DEFAULTS = { minMs: 1_000, maxMs: 5_000 };

export class WalKeeper {
  readonly #db: Db;
  readonly #worker: Worker;
  readonly #restore: number;
  #stopped = false;
  readonly #listeners = new Set<(report: KeeperReport) => void>();

  private constructor(db: Db, worker: Worker, restore: number) {
    this.#db = db;
    this.#worker = worker;
    this.#restore = restore;
    worker.on('message', (report: KeeperReport) => {
      for (const listener of this.#listeners) listener(report);
    });
    worker.on('error', (error) => this.#fallBack(error));
    worker.on('exit', (code) => {
      if (!this.#stopped) this.#fallBack(new Error(`the WAL keeper exited with ${code}`));
    });
    // The app's other threads end the process; this one must not keep it alive.
    worker.unref();
  }

  /** A keeper for `db`, or null for a database that has no WAL file (in memory). */
  static start(db: Db, options: Partial<Omit<KeeperOptions, 'file'>> = {}): WalKeeper | null {
    if (db.memory || !db.open) return null;
    const restore = autocheckpointPages(db);
    const script = workerScript(import.meta.url, 'wal-keeper-worker.ts', 'wal-keeper-worker.js');
    const worker = new Worker(script, {
      workerData: { file: db.name, ...DEFAULTS, ...options } satisfies KeeperOptions,
      name: 'svc-wal-keeper',
    });
    setAutocheckpointPages(db, 0);
    const keeper = new WalKeeper(db, worker, restore);
    // An import's pages are copied once, after it (store/bulk-writes.ts), not while it writes.
    listenToBulk(db, {
      begin: () => keeper.#tell('pause'),
      end: () => keeper.#tell('resume'),
    });
    return keeper;
  }

  /** Called with each checkpoint's report (tests, diagnostics). */
  onReport(listener: (report: KeeperReport) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Checkpoint now rather than at the next turn. */
  now(): void {
    this.#tell('now');
  }

  #tell(message: KeeperMessage): void {
    if (!this.#stopped) this.#worker.postMessage(message);
  }

  /** Stops the thread (its connection closed) and gives the connection its own checkpoints back. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    // Waited for: an unref'd thread would let the process end before it closed its connection.
    this.#worker.ref();
    this.#worker.postMessage('stop' satisfies KeeperMessage);
    await exited;
    this.#giveBack();
  }

  #fallBack(error: unknown): void {
    if (this.#stopped) return;
    this.#stopped = true;
    console.error('WAL keeper failed; the main connection checkpoints again:', error);
    this.#giveBack();
  }

  #giveBack(): void {
    listenToBulk(this.#db, null);
    if (this.#db.open) setAutocheckpointPages(this.#db, this.#restore);
  }
}
