import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ownerApi,
  type OwnerEvent,
  type OwnerInput,
  type OwnerMethod,
  type OwnerOutput,
} from '../../../../src-shared/owner-api.ts';
import type { RunStatus } from '../../../../src-shared/owner/runs.ts';
import { builtinBackend } from '../../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../../engine/backend.ts';
import { openDatabase } from '../../../store/db.ts';
import { createServiceContext } from '../../context/service-context.ts';
import { OwnerEvents } from '../../owner/events.ts';
import type { ServerAddress } from '../../owner/handler-types.ts';
import { answerValue, type Answer } from '../../owner/encoded-json.ts';
import { createOwnerHandlers } from '../../owner/handlers.ts';
import { runRegistry } from '../run-registry.ts';
import { datasetScanner } from '../scanner.ts';

/** The real datasets shipped with the app. */
export const DATASETS_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'resources',
  'datasets',
);
export const dataset = (name: string): string => join(DATASETS_DIR, name);

export interface HarnessOptions {
  backend?: EngineBackend;
  /** A database file in the harness's folder instead of memory. */
  onDisk?: boolean;
  /** The app version `serverStatus` reports. */
  version?: string;
  /** Where `serverStatus` says the server listens (default: not listening). */
  address?: ServerAddress;
}

/**
 * The owner handlers over a real database, with a real event stream, upload
 * and download registries and a temporary folder, for the datasets' tests.
 */
export function createHarness(options: HarnessOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-datasets-'));
  const db = openDatabase(options.onDisk === true ? join(dir, 'data') : ':memory:');
  const ctx = createServiceContext(db, dir, options.version ?? '0.0.0-test');
  const events = new OwnerEvents();
  const received: OwnerEvent[] = [];
  events.subscribe((event) => received.push(event));
  const uploads = new Map<string, string>();
  const downloads = new Map<string, { path: string; fileName: string }>();
  let backend = options.backend ?? builtinBackend;
  const handlers = createOwnerHandlers(ctx, {
    address: () => options.address ?? { host: '127.0.0.1', port: null, url: null },
    emit: (event) => events.emit(event),
    backend: () => backend,
    uploads: {
      pathOf: (id) => {
        const path = uploads.get(id);
        if (path === undefined) throw new Error(`no upload ${id}`);
        return path;
      },
    },
    downloads: {
      register: (path, fileName) => {
        const token = `t${downloads.size}`;
        downloads.set(token, { path, fileName });
        return `/owner-download/${token}`;
      },
    },
    tempDir: dir,
  });

  /**
   * Calls a handler as the transports do: the input parsed against the
   * contract first, an answer encoded as JSON parsed as the page parses it.
   */
  const call = async <M extends OwnerMethod>(
    method: M,
    input: OwnerInput<M>,
  ): Promise<OwnerOutput<M>> => {
    const parsed: unknown = ownerApi[method].input.parse(input);
    const handler = handlers[method] as (input: unknown) => Promise<Answer<OwnerOutput<M>>>;
    return answerValue(await handler(parsed));
  };

  const importFile = async (
    path: string,
    shape: OwnerInput<'importDataset'>['shape'],
    name = 'test',
  ) => call('importDataset', { source: { path }, shape, name });

  /** Resolves once the run has stopped, with its final status. */
  const finished = async (run: RunStatus): Promise<RunStatus> => {
    await runRegistry(db).get(run.id)?.finished;
    const runs = await call('listRuns', { dataset_id: run.dataset_id });
    const final = runs.find((r) => r.id === run.id);
    if (!final) throw new Error(`run ${run.id} is not listed`);
    return final;
  };

  /** Resolves once the dataset's scans (after an import, a run, decisions) are done. */
  const scanned = (datasetId: string): Promise<void> =>
    datasetScanner(ctx, (event) => events.emit(event)).idle(datasetId);

  return {
    scanned,
    dir,
    db,
    ctx,
    events,
    received,
    uploads,
    downloads,
    handlers,
    call,
    importFile,
    finished,
    setBackend: (next: EngineBackend) => {
      backend = next;
    },
  };
}

export type Harness = ReturnType<typeof createHarness>;
