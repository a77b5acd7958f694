import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_TTL_MS, Transfers } from './transfers.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('a download link', () => {
  it('expires with its file when nobody follows it', () => {
    vi.useFakeTimers();
    const transfers = new Transfers(mkdtempSync(join(tmpdir(), 'svc-transfers-')));
    const path = join(transfers.dir, 'export.jsonl');
    writeFileSync(path, '{}\n');
    const url = transfers.register(path, 'export.jsonl');
    const token = url.split('/').at(-1) as string;
    vi.advanceTimersByTime(DOWNLOAD_TTL_MS - 1);
    expect(transfers.download(token).path).toBe(path);
    vi.advanceTimersByTime(1);
    expect(() => transfers.download(token)).toThrow('this download link has expired; export again');
    expect(existsSync(path)).toBe(false);
    transfers.dispose();
  });

  it('goes once fetched, and its timer then finds nothing to remove', () => {
    vi.useFakeTimers();
    const transfers = new Transfers(mkdtempSync(join(tmpdir(), 'svc-transfers-')), {
      downloadTtlMs: 1000,
    });
    const path = join(transfers.dir, 'a.jsonl');
    writeFileSync(path, '{}\n');
    const token = transfers.register(path, 'a.jsonl').split('/').at(-1) as string;
    transfers.served(token);
    expect(existsSync(path)).toBe(false);
    // Another export written to the same path since is not the expired link's to remove.
    writeFileSync(path, '{}\n');
    vi.advanceTimersByTime(1000);
    expect(existsSync(path)).toBe(true);
    transfers.dispose();
  });
});
