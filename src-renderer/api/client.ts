import type { OwnerBridge, OwnerClient } from '../../src-shared/owner-api.ts';
import { httpClient } from './http-transport.ts';
import { ipcClient } from './ipc-transport.ts';

declare global {
  interface Window {
    /** Present only inside Electron, where the preload exposes it. */
    svc?: OwnerBridge;
  }
}

export type Transport = 'ipc' | 'http';

/** The one API object of the UI: IPC inside Electron, HTTP in a browser. */
export const transport: Transport = window.svc ? 'ipc' : 'http';
export const api: OwnerClient = window.svc ? ipcClient(window.svc) : httpClient();
