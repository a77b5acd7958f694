import type { OwnerInput, OwnerMethod, OwnerOutput } from '../../src-shared/owner-api.ts';
import { modelCards, pricingDocument } from './catalog.ts';
import type { ServiceContext } from './context.ts';

/** Where the embedded HTTP server listens right now (null while it is off). */
export interface ServerAddress {
  host: string;
  port: number | null;
  url: string | null;
}

export type OwnerHandlers = {
  [M in OwnerMethod]: (input: OwnerInput<M>) => Promise<OwnerOutput<M>>;
};

/**
 * The one handler map behind both owner transports (IPC and `/owner/*`).
 * Inputs arrive already validated against `ownerApi`.
 */
export function createOwnerHandlers(
  ctx: ServiceContext,
  address: () => ServerAddress,
): OwnerHandlers {
  return {
    serverStatus: () => {
      const settings = ctx.settings();
      const where = address();
      return Promise.resolve({
        running: where.url !== null,
        url: where.url,
        host: where.host,
        port: where.port,
        version: ctx.version,
        data_dir: ctx.dataDir,
        models: modelCards(settings),
        pricing: pricingDocument(settings),
      });
    },
  };
}
