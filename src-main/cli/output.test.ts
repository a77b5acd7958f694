import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openJsonlSink } from './output.ts';
import { svcProcess } from './testing/cli-test-kit.ts';

const GSM8K = join(
  import.meta.dirname,
  '..',
  '..',
  'resources',
  'datasets',
  'gsm8k_test_first300.jsonl',
);

const SVC = join(import.meta.dirname, '..', '..', 'bin', 'svc.js');

describe('--out in a folder that is not there', () => {
  it('is refused in words before any work, with no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-out-'));
    const out = join(dir, 'missing', 'audited.jsonl');
    const run = await svcProcess(dir, 'audit', GSM8K, '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `svc: cannot write ${out}: no such file (is the folder ${join(dir, 'missing')} there and writable?)`,
    );
  });
});

describe('openJsonlSink', () => {
  it('writes OUT only once closed, and a discard leaves no half-written file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sink-'));
    const out = join(dir, 'out.jsonl');
    const sink = openJsonlSink(out);
    await sink.write({ a: 1 });
    expect(existsSync(out)).toBe(false);
    await sink.discard();
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('discards after its close without waiting for a close that already came', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sink-'));
    const out = join(dir, 'out.jsonl');
    const sink = openJsonlSink(out);
    await sink.write({ a: 1 });
    await sink.close();
    // A run that fails after its output is closed (a later step) discards it: this must settle.
    await sink.discard();
    expect(readFileSync(out, 'utf8')).toBe('{"a":1}\n');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

/**
 * `--out` naming a pipe or a device (`/dev/null`, `/dev/stdout`, a shell's
 * `>(gzip)`) is written itself: renamed over, it became a regular file (as
 * root, /dev/null did). A named pipe stands for them here (no root needed).
 */
describe('--out to a pipe or a device', () => {
  const fifo = (): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-fifo-')), 'out.pipe');
    execFileSync('mkfifo', [path]);
    return path;
  };
  /** The pipe's reader, once open (a writer's open waits for one): what it reads, in full. */
  const drain = async (path: string): Promise<{ text: Promise<string> }> => {
    const stream = createReadStream(path, 'utf8');
    await once(stream, 'open');
    let text = '';
    stream.on('data', (chunk) => (text += String(chunk)));
    return { text: once(stream, 'end').then(() => text) };
  };

  it('writes the lines into the pipe, which stays a pipe', async () => {
    const path = fifo();
    // Opened from another thread (as another process would): a pipe's open waits for its reader.
    const reader = new Worker(
      `const { readFileSync } = require('node:fs');
       require('node:worker_threads').parentPort.postMessage(readFileSync(${JSON.stringify(path)}, 'utf8'));`,
      { eval: true },
    );
    const read = once(reader, 'message').then(([text]) => text as string);
    const sink = openJsonlSink(path);
    await sink.write({ a: 1 });
    await sink.close();
    expect(await read).toBe('{"a":1}\n');
    expect(lstatSync(path).isFIFO()).toBe(true);
    expect(existsSync(`${path}.partial`)).toBe(false);
  });

  it('svc audit --out PIPE: the rows arrive and the pipe is left in place', async () => {
    const path = fifo();
    const read = drain(path);
    const run = await svcProcess(dirname(path), 'audit', GSM8K, '--out', path);
    expect(run.code).toBe(0);
    expect((await (await read).text).trim().split('\n')).toHaveLength(300);
    expect(lstatSync(path).isFIFO()).toBe(true);
  });
});

describe('a stderr that fails', () => {
  it.skipIf(!existsSync('/dev/full'))(
    'loses its progress lines, not the run: OUT is written and no OUT.partial is left',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-full-'));
      const out = join(dir, 'audited.jsonl');
      // /dev/full refuses every write (ENOSPC), as a full disk would.
      const full = openSync('/dev/full', 'w');
      const child = spawn(
        process.execPath,
        [SVC, 'audit', GSM8K, '--out', out, '--data-dir', join(dir, 'data')],
        { stdio: ['ignore', 'ignore', full] },
      );
      const [code] = (await once(child, 'exit')) as [number | null];
      closeSync(full);
      expect(code).toBe(0);
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(300);
      expect(existsSync(`${out}.partial`)).toBe(false);
    },
  );
});
