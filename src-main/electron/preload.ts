import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { AppBridge, OwnerBridge, OwnerEvent } from '../../src-shared/owner-api.ts';
// Names only: the schemas (and zod) stay out of the sandboxed preload bundle.
import {
  ipcChannel,
  OWNER_EVENT_CHANNEL,
  OWNER_METHOD_NAMES,
} from '../../src-shared/owner-methods.ts';

/**
 * Exposes exactly one method per owner method as `window.svc`, plus three
 * shell methods (events, a dropped file's path, a save dialog); the page can
 * reach nothing else of Electron or Node (no generic invoke, no channel names).
 */
const owner = Object.fromEntries(
  OWNER_METHOD_NAMES.map((method) => [
    method,
    (input: unknown) => ipcRenderer.invoke(ipcChannel(method), input),
  ]),
) as OwnerBridge;

const bridge: AppBridge = {
  ...owner,
  onEvent: (listener) => {
    const handler = (_event: IpcRendererEvent, payload: OwnerEvent) => listener(payload);
    ipcRenderer.on(OWNER_EVENT_CHANNEL, handler);
    return () => ipcRenderer.off(OWNER_EVENT_CHANNEL, handler);
  },
  pathForFile: (file) => webUtils.getPathForFile(file),
  chooseSavePath: (defaultName) =>
    ipcRenderer.invoke('svc-shell:chooseSavePath', defaultName) as Promise<string | null>,
};

contextBridge.exposeInMainWorld('svc', bridge);
