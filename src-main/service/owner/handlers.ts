import { modelCards, pricingDocument } from '../billing/catalog.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { datasetHandlers } from '../datasets/handlers.ts';
import { recoverDatasets } from '../datasets/recover.ts';
import { accountHandlers } from './account.ts';
import { engineHandlers } from './engines.ts';
import type { OwnerDeps, OwnerHandlers } from './handler-types.ts';
import { settingsHandlers } from './settings.ts';
import { promised } from './promised.ts';

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
