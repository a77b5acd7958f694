import type { ServerSetting } from '../../src-shared/schemas/settings.ts';
import type { RunningServer } from '../http/server.ts';
import type { ServerAddress } from '../service/owner/handler-types.ts';
import type { z } from 'zod';

type Setting = z.infer<typeof ServerSetting>;

/**
 * The desktop app's embedded server, kept in step with the settings: on or
 * off, and on which port, applied at once when the settings change (not at
 * the next start). Changes are applied one at a time, in order. A server that
 * cannot start (its port is taken) leaves the app usable and says why in the
 * Server screen. Electron-free, so it is tested in plain Node.
 */
export class EmbeddedServer {
  readonly #start: (port: number) => Promise<RunningServer>;
  readonly #host: string;
  #server: RunningServer | null = null;
  #error: string | null = null;
  #queue: Promise<void> = Promise.resolve();

  constructor(host: string, start: (port: number) => Promise<RunningServer>) {
    this.#host = host;
    this.#start = start;
  }

  address(): ServerAddress {
    return {
      host: this.#host,
      port: this.#server?.port ?? null,
      url: this.#server?.url ?? null,
      error: this.#error,
    };
  }

  /** Brings the server to the setting; resolves once it is there (or could not get there). */
  apply(setting: Setting): Promise<void> {
    this.#queue = this.#queue.then(() => this.#reconcile(setting));
    return this.#queue;
  }

  /** Stops the server (quitting the app). */
  close(): Promise<void> {
    return this.apply({ enabled: false, port: 0 });
  }

  async #reconcile(setting: Setting): Promise<void> {
    const current = this.#server;
    const wanted = setting.enabled ? setting.port : null;
    // Port 0 means "any free port": a running server already has one.
    const fits = current !== null && wanted !== null && (wanted === 0 || wanted === current.port);
    if (fits) return;
    if (current) {
      this.#server = null;
      await current.close();
    }
    this.#error = null;
    if (wanted === null) return;
    try {
      this.#server = await this.#start(wanted);
      console.log(`listening on ${this.#server.url}`);
    } catch (error) {
      this.#error = `the server could not start on port ${wanted}: ${(error as Error).message}`;
      console.error(this.#error);
    }
  }
}
