import type { z } from 'zod';
import type {
  OwnerApi,
  OwnerEvent,
  OwnerMethod,
  OwnerOutput,
} from '../../../src-shared/owner-api.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { modelCards, pricingDocument } from '../billing/catalog.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { datasetHandlers } from '../datasets/handlers.ts';
import { recoverDatasets } from '../datasets/recover.ts';
import type { Uploads } from '../datasets/source.ts';
import { accountHandlers } from './account.ts';
import { engineHandlers } from './engines.ts';
import { settingsHandlers } from './settings.ts';
import { promised } from './promised.ts';

/** Where the embedded HTTP server listens right now (null while it is off). */
export interface ServerAddress {
  host: string;
  port: number | null;
  url: string | null;
  /** Why the server is not running when it should be (e.g. its port is taken). */
  error?: string | null;
}

/** What the owner handlers need from the shell that hosts them (server or Electron). */
export interface OwnerDeps {
  address: () => ServerAddress;
  /** Pushes import and run progress to the UI (an `OwnerEvents`' emit). */
  emit: (event: OwnerEvent) => void;
  /** The engine backend in force, read per batch. */
  backend: () => EngineBackend;
  /** Uploaded files by id (the browser transport). */
  uploads: Uploads;
  /** Makes an exported file downloadable; returns its URL path. */
  downloads: { register(path: string, fileName: string): string };
  /** Where exports without a path are written. */
  tempDir: string;
}

/** A handler receives its input validated against `ownerApi`, defaults filled in. */
export type OwnerHandlers = {
  [M in OwnerMethod]: (input: z.output<OwnerApi[M]['input']>) => Promise<OwnerOutput<M>>;
};

/**
 * The one handler map behind both owner transports (IPC and `/owner/*`).
 * Inputs arrive already validated against `ownerApi`. Creating it also runs
 * the datasets' start-up pass once per database (runs a crash left
 * `running`, unfinished imports).
 */
export function createOwnerHandlers(ctx: ServiceContext, deps: OwnerDeps): OwnerHandlers {
  recoverDatasets(ctx.db);
  return {
    serverStatus: () =>
      promised(() => {
        const settings = ctx.settings();
        const where = deps.address();
        return {
          running: where.url !== null,
          url: where.url,
          host: where.host,
          port: where.port,
          error: where.error ?? null,
          version: ctx.version,
          data_dir: ctx.dataDir,
          models: modelCards(settings),
          pricing: pricingDocument(settings),
        };
      }),
    ...datasetHandlers(ctx, deps),
    ...accountHandlers(ctx),
    ...settingsHandlers(ctx),
    ...engineHandlers(ctx),
  };
}
