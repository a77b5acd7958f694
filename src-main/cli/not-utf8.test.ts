import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess } from './testing/cli-test-kit.ts';

/** Bytes that are not UTF-8 in the input are read as U+FFFD: the run says where, once. */
describe('svc and bytes that are not UTF-8', () => {
  it('svc audit says which line holds such bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-utf8-'));
    const file = join(dir, 'rows.jsonl');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"text":"A fine line."}\n{"text":"tur'),
        Buffer.from([0x92]),
        Buffer.from('stico"}\n'),
      ]),
    );
    const run = await svcProcess(dir, 'audit', file, '--out', join(dir, 'out.jsonl'));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `note: line 2 of ${file} (and maybe others) holds bytes that are not UTF-8`,
    );
  });
});
