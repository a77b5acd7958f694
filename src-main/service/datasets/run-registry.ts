import type { RunStatus } from '../../../src-shared/owner/runs.ts';
import type { Db } from '../../store/db.ts';

/**
 * The runs in progress in this process, per database: every owner handler
 * map over the same database (Electron's IPC and the embedded server's
 * `/owner` routes) shares them, so either transport sees and cancels a run
 * the other started, and a dataset never has two runs at once.
 */

export interface ActiveRun {
  id: string;
  datasetId: string;
  controller: AbortController;
  /** The live status (progress within the current batch included). */
  status: RunStatus;
  /** Settles when the run has stopped and its final status is stored. */
  finished: Promise<void>;
}

export class RunRegistry {
  readonly #byId = new Map<string, ActiveRun>();

  add(run: ActiveRun): void {
    this.#byId.set(run.id, run);
  }

  remove(id: string): void {
    this.#byId.delete(id);
  }

  get(id: string): ActiveRun | undefined {
    return this.#byId.get(id);
  }

  forDataset(datasetId: string): ActiveRun | undefined {
    for (const run of this.#byId.values()) if (run.datasetId === datasetId) return run;
    return undefined;
  }
}

const registries = new WeakMap<Db, RunRegistry>();

export function runRegistry(db: Db): RunRegistry {
  let registry = registries.get(db);
  if (!registry) {
    registry = new RunRegistry();
    registries.set(db, registry);
  }
  return registry;
}
