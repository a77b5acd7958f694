import { contextBridge, ipcRenderer } from 'electron';
import { ipcChannel, OWNER_METHODS, type OwnerBridge } from '../../src-shared/owner-api.ts';

/**
 * Exposes exactly one method per owner method as `window.svc`; the page can
 * reach nothing else of Electron or Node (no generic invoke, no channel names).
 */
const bridge = Object.fromEntries(
  OWNER_METHODS.map((method) => [
    method,
    (input: unknown) => ipcRenderer.invoke(ipcChannel(method), input),
  ]),
) as OwnerBridge;

contextBridge.exposeInMainWorld('svc', bridge);
