import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileOperationCommand } from './file-ops.ts';
import { checkOutputTargets } from './output-targets.ts';
import { rejection, tempDirs } from './testing/cli-test-kit.ts';

const tempDir = tempDirs('svc-targets-');

describe('checkOutputTargets', () => {
  it('refuses an output that leads to an input or an earlier output, however it is written', () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, '{}\n');
    symlinkSync(input, join(dir, 'link.jsonl'));
    const inputs = [{ what: 'the input', path: input }];
    const check =
      (...outputs: [string, string | undefined][]) =>
      () =>
        checkOutputTargets(
          inputs,
          outputs.map(([what, path]) => ({ what, path })),
        );
    expect(check(['--report', input])).toThrow(
      `--report ${input} is the input: writing it would destroy it; name another file`,
    );
    expect(check(['--out', join(dir, 'link.jsonl')])).toThrow(/^--out .* is the input \(/);
    expect(check(['--out', join(dir, '.', 'sub', '..', 'in.jsonl')])).toThrow(/is the input/);
    // Two outputs not there yet, one path.
    expect(check(['--out', join(dir, 'o.jsonl')], ['--report', join(dir, 'o.jsonl')])).toThrow(
      /^--report .* is --out: writing it would destroy it/,
    );
    // Standard output, nothing named, and distinct files are fine.
    expect(check(['--out', '-'], ['--report', undefined])).not.toThrow();
    expect(check(['--out', join(dir, 'o.jsonl')], ['--report', join(dir, 'r.json')])).not.toThrow();
  });

  it('refuses a folder, and a file in a folder that is not there', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'adir'));
    const check = (path: string) => () => checkOutputTargets([], [{ what: '--out', path }]);
    expect(check(join(dir, 'adir'))).toThrow(/^--out .*adir is a folder: name a file$/);
    expect(check(join(dir, 'nodir', 'r.json'))).toThrow(
      /^cannot write .*nodir\/r\.json: no such file \(is the folder .*nodir there and writable\?\)$/,
    );
  });

  it('stops svc audit before any work, its input kept', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const row = '{"task_type": "text", "text": "A sentence of some length to audit."}\n';
    writeFileSync(input, row);
    chmodSync(input, 0o644);
    const error = await rejection(
      fileOperationCommand('audit', [input, '--out', join(dir, 'o.jsonl'), '--report', input]),
    );
    expect(error).toMatchObject({ code: 'invalid_request' });
    expect(error.message).toMatch(/^--report .* is the input: writing it would destroy it/);
  });
});
