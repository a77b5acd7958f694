import { join } from 'node:path';
import { BrowserWindow, session, shell } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../http/routes/renderer.ts';

const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const devServerUrl = process.env.ELECTRON_RENDERER_URL;

/** The page the window shows; IPC is served to this origin only. */
export const rendererUrl = (): string =>
  devServerUrl ?? new URL(`file://${rendererFile.replaceAll('\\', '/')}`).href;

export function isTrustedRendererUrl(url: string): boolean {
  if (devServerUrl) return url.startsWith(devServerUrl);
  return url.split('#')[0] === rendererUrl();
}

/** Applies the CSP to every response and refuses every permission request. */
export function hardenSession(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
}

/** A hardened window: isolated, sandboxed, no Node, no navigation away, no new windows. */
export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'svc',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    // Links to the web open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());
  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadFile(rendererFile);
  return window;
}
