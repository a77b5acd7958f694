import type { Db } from '../../store/db.ts';

/**
 * The imports in progress in this process, per database (as run-registry.ts
 * keeps the runs): what a delete of a dataset still importing stops. Each
 * import registers itself once its dataset exists and leaves when it has
 * ended, its dataset kept or removed.
 */
export interface ActiveImport {
  controller: AbortController;
  /** Settles once the import has ended and, stopped or failed, its dataset is removed. */
  ended: Promise<void>;
}

const registries = new WeakMap<Db, Map<string, ActiveImport>>();

export function importRegistry(db: Db): Map<string, ActiveImport> {
  let registry = registries.get(db);
  if (!registry) {
    registry = new Map();
    registries.set(db, registry);
  }
  return registry;
}
