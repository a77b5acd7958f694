import { type BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { OwnerHandlers } from '../service/owner/handler-types.ts';
import { isTrustedSender, registerOwnerHandlers } from './ipc-handlers.ts';

/** Every owner method on Electron's `ipcMain` (see ipc-handlers.ts). */
export function registerOwnerIpc(
  handlers: OwnerHandlers,
  isTrustedUrl: (url: string) => boolean,
): void {
  registerOwnerHandlers(ipcMain, handlers, isTrustedUrl);
}

/** The shell's own channel: a native save dialog for exports, for the app's page only. */
export function registerShellIpc(
  window: () => BrowserWindow | null,
  isTrustedUrl: (url: string) => boolean,
): void {
  ipcMain.handle(
    'svc-shell:chooseSavePath',
    async (event: IpcMainInvokeEvent, defaultName: unknown) => {
      if (!isTrustedSender(event, isTrustedUrl)) return null;
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
