import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { ipcChannel, OWNER_METHODS } from '../../src-shared/owner-api.ts';
import { dispatchOwnerCall } from '../service/owner-dispatch.ts';
import type { OwnerHandlers } from '../service/owner-handlers.ts';

/**
 * One `ipcMain.handle` per owner method. A call is served only when it comes
 * from the app's own top-level page; anything else gets `forbidden`.
 */
export function registerOwnerIpc(
  handlers: OwnerHandlers,
  isTrustedSender: (url: string) => boolean,
): void {
  for (const method of OWNER_METHODS) {
    ipcMain.handle(ipcChannel(method), (event: IpcMainInvokeEvent, input: unknown) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedSender(frame.url)) {
        return {
          ok: false,
          error: { code: 'forbidden', message: `IPC from ${frame?.url ?? 'unknown'} refused` },
        };
      }
      return dispatchOwnerCall(handlers, method, input);
    });
  }
}
