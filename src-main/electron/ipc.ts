import { type BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
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

/** The shell's own channel: a native save dialog for exports, for the app's page only. */
export function registerShellIpc(
  window: () => BrowserWindow | null,
  isTrustedSender: (url: string) => boolean,
): void {
  ipcMain.handle(
    'svc-shell:chooseSavePath',
    async (event: IpcMainInvokeEvent, defaultName: unknown) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedSender(frame.url)) return null;
      const owner = window();
      const options = {
        defaultPath: typeof defaultName === 'string' ? defaultName : 'export.jsonl',
      };
      const result = owner
        ? await dialog.showSaveDialog(owner, options)
        : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
  );
}
