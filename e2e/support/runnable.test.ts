import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnable } from './runnable.ts';

/** The e2e set-up's Chromium lookup takes only a browser it can start. */
describe('runnable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runnable-'));
  const script = (name: string, body: string, mode: number): string => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, mode);
    return path;
  };

  it('takes an executable that answers --version', () => {
    expect(runnable(script('ok', 'exit 0', 0o755))).toBe(true);
  });

  it('treats a file without an execute bit as absent', () => {
    expect(runnable(script('plain', 'exit 0', 0o644))).toBe(false);
  });

  it('treats a wrapper that fails as absent (a snap stub without snap)', () => {
    expect(runnable(script('stub', 'echo "install the snap" >&2; exit 1', 0o755))).toBe(false);
  });

  it('treats a directory and a missing path as absent', () => {
    expect(runnable(dir)).toBe(false);
    expect(runnable(join(dir, 'missing'))).toBe(false);
  });
});
