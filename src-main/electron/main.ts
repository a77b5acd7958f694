import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { startServer, type RunningServer } from '../http/server.ts';
import { createServiceContext } from '../service/context.ts';
import { createOwnerHandlers } from '../service/owner-handlers.ts';
import { openDatabase } from '../store/db.ts';
import { registerOwnerIpc } from './ipc.ts';
import { createMainWindow, hardenSession, isTrustedRendererUrl } from './window.ts';

/**
 * The Electron shell, kept thin: open the database, start the embedded server
 * (unless turned off in settings), wire IPC to the same owner handlers the
 * browser uses, and show one hardened window.
 */

app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();

let server: RunningServer | null = null;

async function launch(): Promise<void> {
  const dataDir = app.getPath('userData');
  const db = openDatabase(dataDir);
  const ctx = createServiceContext(db, dataDir, app.getVersion());
  const { server: serverSettings } = ctx.settings();
  if (serverSettings.enabled) {
    try {
      server = await startServer({
        ctx,
        host: '127.0.0.1',
        port: serverSettings.port,
        rendererDir: join(import.meta.dirname, '../renderer'),
      });
      console.log(`listening on ${server.url}`);
    } catch (error) {
      // The app stays usable without its server (e.g. the port is taken); the Server screen says so.
      console.error(`the embedded server could not start on port ${serverSettings.port}:`, error);
    }
  }
  registerOwnerIpc(
    createOwnerHandlers(ctx, () => ({
      host: '127.0.0.1',
      port: server?.port ?? null,
      url: server?.url ?? null,
    })),
    isTrustedRendererUrl,
  );
  hardenSession();
  createMainWindow();

  app.on('before-quit', () => {
    void server?.close();
    db.close();
  });
}

app.on('second-instance', () => {
  const [window] = BrowserWindow.getAllWindows();
  if (window) {
    if (window.isMinimized()) window.restore();
    window.focus();
  }
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('activate', () => {
  if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
});

app
  .whenReady()
  .then(launch)
  .catch((error: unknown) => {
    console.error('svc failed to start:', error);
    app.exit(1);
  });
