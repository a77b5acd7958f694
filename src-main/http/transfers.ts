import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';

/** How long an export's download link lasts unfollowed. */
export const DOWNLOAD_TTL_MS = 60 * 60_000;

/**
 * Files that cross the browser transport: uploads (a dropped file is sent to
 * the server, which imports it from a temp path) and downloads (an export is
 * written to a temp path and fetched once by its token). Inside Electron,
 * paths are used directly and this is not involved.
 */
export class Transfers {
  readonly dir: string;
  readonly #uploads = new Map<string, { path: string; fileName: string }>();
  readonly #downloads = new Map<string, { path: string; fileName: string }>();
  readonly #downloadTtlMs: number;

  /**
   * `downloadTtlMs`: how long an export waits to be fetched. A link never
   * followed kept its file until the server stopped: 19 exports left 474 MB in
   * the temporary folder of a server that ran on.
   */
  constructor(dir: string, { downloadTtlMs = DOWNLOAD_TTL_MS }: { downloadTtlMs?: number } = {}) {
    this.dir = dir;
    this.#downloadTtlMs = downloadTtlMs;
    mkdirSync(dir, { recursive: true });
  }

  newUpload(fileName: string): { id: string; path: string } {
    const id = `up_${randomBytes(12).toString('hex')}`;
    const safe =
      basename(fileName)
        .replace(/[^\w.-]+/g, '_')
        .slice(-120) || 'upload';
    const path = join(this.dir, `${id}-${safe}`);
    this.#uploads.set(id, { path, fileName: basename(fileName) });
    return { id, path };
  }

  pathOf(uploadId: string): string {
    const upload = this.#uploads.get(uploadId);
    if (!upload) throw new AppError('not_found', `no upload ${uploadId}: upload the file again`);
    return upload.path;
  }

  fileNameOf(uploadId: string): string {
    return this.#uploads.get(uploadId)?.fileName ?? uploadId;
  }

  /** Deletes an upload once it is imported. */
  release(uploadId: string): void {
    const upload = this.#uploads.get(uploadId);
    if (!upload) return;
    this.#uploads.delete(uploadId);
    rmSync(upload.path, { force: true });
  }

  /** Forgets a download once it is fetched, and deletes its file. */
  served(token: string): void {
    const entry = this.#downloads.get(token);
    if (!entry) return;
    this.#downloads.delete(token);
    rmSync(entry.path, { force: true });
  }

  /** Deletes the folder and everything in it (the server is closing). */
  dispose(): void {
    this.#uploads.clear();
    this.#downloads.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Registers a file for download and returns the URL path that serves it. */
  register(path: string, fileName: string): string {
    const token = randomBytes(16).toString('hex');
    this.#downloads.set(token, { path, fileName });
    // Not fetched by then: the link expires and the file goes (a fetch under way reads on: the
    // file stays open until it ends).
    setTimeout(() => this.served(token), this.#downloadTtlMs).unref();
    return `/owner-download/${token}`;
  }

  download(token: string): { path: string; fileName: string } {
    const entry = this.#downloads.get(token);
    if (!entry) throw new AppError('not_found', 'this download link has expired; export again');
    return entry;
  }
}
