import {
  OWNER_EVENTS_PATH,
  OWNER_UPLOAD_PATH,
  type AppBridge,
  type OwnerClient,
  type OwnerEvent,
} from '../../src-shared/owner-api.ts';
import type { ImportSource } from '../../src-shared/owner/datasets.ts';
import { AppError } from '../../src-shared/errors.ts';
import { httpClient } from './http-transport.ts';
import { ipcClient } from './ipc-transport.ts';

declare global {
  interface Window {
    /** Present only inside Electron, where the preload exposes it. */
    svc?: AppBridge;
  }
}

export type Transport = 'ipc' | 'http';

/** The one API object of the UI: IPC inside Electron, HTTP in a browser. */
export const transport: Transport = window.svc ? 'ipc' : 'http';
export const api: OwnerClient = window.svc ? ipcClient(window.svc) : httpClient();

/** Pushed events: the preload's channel in Electron, an SSE stream in a browser. */
export function subscribeEvents(listener: (event: OwnerEvent) => void): () => void {
  if (window.svc) return window.svc.onEvent(listener);
  const source = new EventSource(OWNER_EVENTS_PATH);
  source.onmessage = (message: MessageEvent<string>) => {
    listener(JSON.parse(message.data) as OwnerEvent);
  };
  return () => source.close();
}

/** Where an import reads a picked or dropped file from: its path (Electron) or an upload (browser). */
export async function sourceForFile(file: File): Promise<ImportSource> {
  if (window.svc) return { path: window.svc.pathForFile(file) };
  const response = await fetch(`${OWNER_UPLOAD_PATH}?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    body: file,
    credentials: 'same-origin',
  });
  const body = (await response.json().catch(() => null)) as {
    upload_id?: string;
    detail?: string;
  } | null;
  if (!response.ok || !body?.upload_id) {
    throw new AppError(
      'invalid_request',
      body?.detail ?? `upload failed (HTTP ${response.status})`,
    );
  }
  return { upload_id: body.upload_id };
}

/** Electron: a save dialog; a browser downloads instead (null). */
export async function chooseSavePath(defaultName: string): Promise<string | null | undefined> {
  return window.svc ? window.svc.chooseSavePath(defaultName) : undefined;
}
