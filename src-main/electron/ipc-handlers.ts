import type { IpcMainInvokeEvent } from 'electron';
import { ipcChannel, OWNER_METHODS, type IpcResult } from '../../src-shared/owner-api.ts';
import { dispatchOwnerCall } from '../service/owner/dispatch.ts';
import type { OwnerHandlers } from '../service/owner/handler-types.ts';

/**
 * The IPC edge without Electron itself (only its types), so it is tested in
 * plain Node: `ipc.ts` hands it Electron's `ipcMain`.
 */

/** The part of `ipcMain` used here. */
export interface IpcRegistrar {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown,
  ): void;
}

/** The sender a call comes from: the app's own page, top-level (not a frame inside it). */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'>;

export function isTrustedSender(
  event: SenderEvent,
  isTrustedUrl: (url: string) => boolean,
): boolean {
  const frame = event.senderFrame;
  return !!frame && frame.parent === null && isTrustedUrl(frame.url);
}

/**
 * One handler per owner method (channel `svc:<method>`). A call is served only
 * when it comes from the app's own top-level page; anything else gets
 * `forbidden`. Inputs are validated by `dispatchOwnerCall`, which returns
 * errors as values and never throws across IPC.
 */
export function registerOwnerHandlers(
  ipc: IpcRegistrar,
  handlers: OwnerHandlers,
  isTrustedUrl: (url: string) => boolean,
): void {
  for (const method of OWNER_METHODS) {
    ipc.handle(
      ipcChannel(method),
      (event, input): Promise<IpcResult<unknown>> | IpcResult<never> => {
        if (!isTrustedSender(event, isTrustedUrl)) {
          return {
            ok: false,
            error: {
              code: 'forbidden',
              message: `IPC from ${event.senderFrame?.url ?? 'an unknown frame'} refused`,
            },
          };
        }
        return dispatchOwnerCall(handlers, method, input);
      },
    );
  }
}
