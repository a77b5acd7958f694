import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import type { SettingsIo } from '../settings.ts';

/** What the CLI command tests share: data folders, captured output, expected failures. */

/** A maker of data folders, each removed after its test. Call at the top of a test file. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** An io that records what a command writes (and feeds it `stdin`). */
export function capture(env: NodeJS.ProcessEnv = {}, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: SettingsIo = {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    env,
    stdin: () => Promise.resolve(stdin),
  };
  return { io, out, err, all: () => [...out, ...err].join('\n') };
}

/** The AppError a command fails with (any other outcome fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const repo = join(import.meta.dirname, '..', '..', '..');

/** The environment without SVC_* settings, so every run is on the builtin engine. */
export const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_')),
);

/**
 * Runs `svc ARGS --data-dir DIR/data` as a real process (async, so a test can
 * run independent calls at once) and gives its exit code and output.
 */
export function svcProcess(dir: string, ...args: string[]) {
  return svcProcessOf(repo, dir, ...args);
}

/** `svcProcess` with some variables of its own (`SVC_*` ones too) beside the clean environment. */
export function svcProcessWith(env: Record<string, string>, dir: string, ...args: string[]) {
  return svcProcessIn(repo, dir, args, { ...cleanEnv, ...env });
}

/** `svcProcess`, with the `svc` of an install at `root` (its `bin/svc.js`). */
export function svcProcessOf(root: string, dir: string, ...args: string[]) {
  return svcProcessIn(root, dir, args, cleanEnv);
}

function svcProcessIn(root: string, dir: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(root, 'bin', 'svc.js'), ...args, '--data-dir', join(dir, 'data')],
      { env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
