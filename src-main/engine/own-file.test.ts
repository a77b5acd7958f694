import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOwnFile } from './own-file.ts';

describe('readOwnFile', () => {
  it("reads this user's file that no one else may write, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-own-'));
    const path = join(dir, 'cache.json');
    expect(readOwnFile(path)).toBeUndefined();
    writeFileSync(path, 'kept', { mode: 0o600 });
    expect(readOwnFile(path)).toBe('kept');
    chmodSync(path, 0o620);
    expect(readOwnFile(path)).toBeUndefined();
    chmodSync(path, 0o602);
    expect(readOwnFile(path)).toBeUndefined();
    chmodSync(path, 0o644);
    expect(readOwnFile(path)).toBe('kept');
  });
});
