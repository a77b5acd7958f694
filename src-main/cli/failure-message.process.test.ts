import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const svcJs = join(import.meta.dirname, '..', '..', 'bin', 'svc.js');

describe('a failed command', () => {
  it('says why to a reader that lags behind it, where a full pipe lost the last lines', async () => {
    const work = mkdtempSync(join(tmpdir(), 'svc-lagging-reader-'));
    const input = join(work, 'unmapped.jsonl');
    const rows = 5000;
    writeFileSync(
      input,
      Array.from({ length: rows }, (_, i) => `${JSON.stringify({ question: `q${i}` })}\n`).join(''),
    );
    const child = spawn(
      process.execPath,
      [
        svcJs,
        'audit',
        input,
        '--task-type',
        'text',
        '--map',
        'text=nosuchfield',
        '--out',
        join(work, 'out.jsonl'),
        '--data-dir',
        join(work, 'data'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const closed = once(child, 'close');
    // Nobody reads its stderr (a line per skipped row, ~0.5 MB: more than a pipe and the
    // stream's buffer hold) until it has exited, or for 4 s: it must wait for the reader.
    child.stderr.pause();
    await Promise.race([once(child, 'exit'), delay(4000)]);
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.stderr.resume();
    const [code] = (await closed) as [number | null];
    expect(stderr).toContain(`row ${rows}: row does not fit the field mapping`);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe(
      `svc: none of the ${rows} rows of ${input} could be read as samples, so nothing was written ` +
        '(first: row 1: row does not fit the field mapping: "nosuchfield" (text) is missing): ' +
        'check --shape, --task-type and --map',
    );
    expect(code).toBe(2);
  }, 60_000);
});
