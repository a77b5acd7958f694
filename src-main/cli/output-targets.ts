import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import { fsProblem } from '../files/index.ts';

/** A file a command names: what it is to the command (`--report`, `the input`), and its path. */
export interface NamedFile {
  what: string;
  path: string | undefined;
}

/**
 * The file a path leads to: an existing one by its device and inode (a link,
 * `./x` and `x` lead to the same), one not there yet by its folder's real
 * path and its name.
 */
function fileIdentity(path: string): string {
  try {
    const stats = statSync(path);
    return `inode ${stats.dev}:${stats.ino}`;
  } catch {
    try {
      return resolve(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

const refuse = (message: string): AppError => new AppError('invalid_request', message);

/**
 * Refuses, before any work, an output that would destroy what the command
 * reads or another of its outputs, or that cannot be written: `--report
 * in.jsonl` replaced the dataset with a 2 KB report, `svc merge p0.jsonl p0.jsonl
 * p1.jsonl` a part with the merge, both with exit code 0; `--out` naming a
 * folder, or a report in a folder that is not there, failed only after the
 * whole run, with Node's stack trace. `-` (standard output) is never a file.
 */
export function checkOutputTargets(
  inputs: readonly NamedFile[],
  outputs: readonly NamedFile[],
): void {
  const taken = new Map<string, NamedFile>();
  for (const input of inputs) {
    if (input.path !== undefined && input.path !== '-') {
      const id = fileIdentity(input.path);
      if (!taken.has(id)) taken.set(id, input);
    }
  }
  for (const output of outputs) {
    const { what, path } = output;
    if (path === undefined || path === '-') continue;
    const id = fileIdentity(path);
    const other = taken.get(id);
    if (other) {
      throw refuse(
        `${what} ${path} is ${other.what}${other.path === path ? '' : ` (${other.path})`}: ` +
          'writing it would destroy it; name another file',
      );
    }
    taken.set(id, output);
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      // Not there yet: its folder must be.
    }
    if (folder) throw refuse(`${what} ${path} is a folder: name a file`);
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch (error) {
      throw refuse(
        `cannot write ${path}: ${fsProblem(error)} (is the folder ${dirname(path)} there and writable?)`,
      );
    }
  }
}
