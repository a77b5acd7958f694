import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { OWNER_EVENT_CHANNEL } from '../../src-shared/owner-api.ts';
import { hostedOwnerHandlers } from '../http/owner-handlers.ts';
import { startServer } from '../http/server.ts';
import { Transfers } from '../http/transfers.ts';
import { selectBackend } from '../service/runs/backend-select.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { WalKeeper } from '../service/datasets/wal-keeper.ts';
import { OwnerEvents } from '../service/owner/events.ts';
import { warmTokenizer } from '../engine/tokens.ts';
import { lowerHelperThreads } from '../service/threads/background-priority.ts';
import { useCompileCache } from '../service/threads/compile-cache.ts';
import { loadBuiltinEngine } from '../engine/builtin/backend.ts';
import { loadFileFormats } from '../files/index.ts';
import { warmEngineHere } from '../service/runs/warm-engine.ts';
import { openDatabase } from '../store/db.ts';
import { EmbeddedServer } from './embedded-server.ts';
import { registerOwnerIpc, registerShellIpc } from './ipc.ts';
import { useSafeStorageForSecrets } from './secret-storage.ts';
import { createMainWindow, hardenSession, isTrustedRendererUrl } from './window.ts';
// This thread writes rows it is handed: a BigInt in one (an integer past 2^53) as its digits.
import '../../src-shared/exact-json.ts';

/**
 * The Electron shell, kept thin: open the database, start the embedded server
 * (unless turned off in settings), wire IPC to the same owner handlers the
 * browser uses, and show one hardened window.
 */

app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();
// Before any thread starts: each reads V8's code from the cache instead of compiling its bundle.
useCompileCache(join(app.getPath('userData'), 'compile-cache'));

let server: EmbeddedServer | null = null;
/** The one window (a second instance focuses it); save dialogs are attached to it. */
let mainWindow: BrowserWindow | null = null;

async function launch(): Promise<void> {
  // safeStorage is usable once the app is ready, and must be in place before any key is read.
  useSafeStorageForSecrets();
  const dataDir = app.getPath('userData');
  // Before the server starts, so no request waits for its rank table (see engine/tokens.ts).
  warmTokenizer();
  // The builtin engine and the file formats load at their first use elsewhere; here, before
  // any request, for the same reason.
  await Promise.all([loadBuiltinEngine(), loadFileFormats()]);
  // And run once here: an estimate's first trial slices run on this thread (runs/warm-engine.ts).
  await warmEngineHere();
  const db = openDatabase(dataDir);
  // The WAL is copied into the database off the main thread (see service/datasets/wal-keeper.ts).
  const walKeeper = WalKeeper.start(db);
  // The server's main thread goes before V8's helper threads too (threads/background-priority.ts).
  lowerHelperThreads();
  const ctx = createServiceContext(db, dataDir, app.getVersion());
  // One event stream and one transfer folder for both transports (IPC and the server).
  const events = new OwnerEvents();
  events.subscribe((event) => {
    for (const window of BrowserWindow.getAllWindows()) {
      window.webContents.send(OWNER_EVENT_CHANNEL, event);
    }
  });
  const transfers = new Transfers(mkdtempSync(join(app.getPath('temp'), 'svc-')));
  // The app stays usable without its server (e.g. the port is taken); the Server screen says why.
  server = new EmbeddedServer('127.0.0.1', (port) =>
    startServer({
      ctx,
      host: '127.0.0.1',
      port,
      rendererDir: join(import.meta.dirname, '../renderer'),
      events,
      transfers,
    }),
  );
  const embedded = server;
  await embedded.apply(ctx.settings().server);
  const handlers = hostedOwnerHandlers(ctx, {
    address: () => embedded.address(),
    events,
    backend: () => selectBackend(ctx),
    transfers,
  });
  registerOwnerIpc(
    {
      ...handlers,
      // Server on/off and its port apply at once, not at the next start.
      updateSettings: async (input) => {
        const saved = await handlers.updateSettings(input);
        await embedded.apply(saved.server);
        return saved;
      },
    },
    isTrustedRendererUrl,
  );
  registerShellIpc(() => mainWindow, isTrustedRendererUrl);
  hardenSession();
  mainWindow = createMainWindow();

  app.on('before-quit', () => {
    void server?.close().finally(() => transfers.dispose());
    void walKeeper?.stop();
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
  if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
});

app
  .whenReady()
  .then(launch)
  .catch((error: unknown) => {
    console.error('svc failed to start:', error);
    app.exit(1);
  });
