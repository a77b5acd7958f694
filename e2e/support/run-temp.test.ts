import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRunTempDir } from './run-temp.ts';

describe("a test run's temporary folder", () => {
  it('is where this run makes its files (vitest-global-setup.ts)', () => {
    expect(basename(tmpdir())).toMatch(/^svc-unit-run-/);
  });

  it('points TMPDIR into it until the teardown, which removes it whole', () => {
    const before = process.env.TMPDIR;
    const outer = tmpdir();
    const teardown = useRunTempDir('svc-run-temp-test-');
    const dir = tmpdir();
    expect(dirname(dir)).toBe(outer);
    writeFileSync(join(dir, 'left.txt'), 'a file a test forgot');
    teardown();
    expect(existsSync(dir)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
