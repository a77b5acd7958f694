import type { EngineBackend } from '../engine/backend.ts';
import type { OwnerEvents } from '../service/owner/events.ts';
import type { OwnerHandlers, ServerAddress } from '../service/owner/handler-types.ts';
import { createOwnerHandlers } from '../service/owner/handlers.ts';
import type { ServiceContext } from '../service/context/service-context.ts';
import type { Transfers } from './transfers.ts';

export interface OwnerHandlerHost {
  address: () => ServerAddress;
  /** Where import and run progress goes (the server's event stream, Electron's window). */
  events: OwnerEvents;
  backend: () => EngineBackend;
  /** The browser transport's uploads and downloads; its folder takes exports without a path. */
  transfers: Transfers;
}

/**
 * The owner handlers as a server hosts them (the server, its tests and the
 * Electron shell beside it): progress to one event stream, files through one
 * transfer folder.
 */
export function hostedOwnerHandlers(ctx: ServiceContext, host: OwnerHandlerHost): OwnerHandlers {
  return createOwnerHandlers(ctx, {
    address: host.address,
    emit: (event) => host.events.emit(event),
    backend: host.backend,
    uploads: host.transfers,
    downloads: host.transfers,
    tempDir: host.transfers.dir,
  });
}
