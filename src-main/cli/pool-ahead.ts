import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { formatFromPath } from '../files/index.ts';
import { sliceBytes } from '../service/file-pass/line-slices.ts';
import {
  capEngineWorkers,
  engineWorkers,
  filePassPool,
  prestartFilePass,
} from '../service/runs/pool/engine-pool.ts';
import { upstreamInEnv } from '../service/runs/upstream-env.ts';
import { FILE_OPS_OPTIONS, MERGE_OPTIONS } from './file-ops-options.ts';
import { fullPoolV8Flags } from './v8-flags.ts';

/**
 * Before a batch command loads its own modules: its workers bounded by its
 * files, V8 told how they compile, then started ahead (each below).
 */
export function prepareWorkers(command: 'pass' | 'merge', argv: string[]): void {
  fitWorkersToFiles(passFiles(command, argv));
  tuneV8ForWorkers();
  if (command === 'pass') startFilePassAhead(argv);
  else startMergeAhead(argv);
}

/**
 * A command over `files` (a JSON Lines pass's input; a merge's parts and
 * its input) keeps at most one engine worker per slice of them busy
 * (service/file-pass/line-slices.ts: the pass is cut into slices of 256 KiB,
 * and the dataset checks' tasks follow its slices): no more are started.
 * Every worker loads the engine (~0.2 s of CPU, ~35 MiB): `svc audit` of a
 * 10-row file with 16 workers took 3.1 s of the workers' CPU and 889 MB of
 * memory where one took 0.3 s and 286 MB, for the same output. No files, or
 * one that is not a regular file or cannot be read, leave the count alone
 * (the command says what is wrong with them).
 */
export function fitWorkersToFiles(files: readonly string[]): void {
  if (files.length === 0) return;
  let bytes = 0;
  try {
    for (const file of files) {
      const stat = statSync(file);
      if (!stat.isFile()) return;
      bytes += stat.size;
    }
  } catch {
    return;
  }
  capEngineWorkers(Math.ceil(bytes / sliceBytes()));
}

/**
 * The files whose size bounds a command's workers (`fitWorkersToFiles`):
 * a pass's input where its whole pass runs on the workers in slices (the
 * row-at-a-time pass splits each batch of 500 rows between every worker,
 * and a compressed Parquet file says little of its rows); a merge's parts
 * and the input it scans (`--input`, else the one the first part names).
 */
export function passFiles(command: 'pass' | 'merge', argv: string[]): string[] {
  try {
    if (command === 'pass') {
      const { values, positionals } = parseArgs({
        args: argv,
        options: FILE_OPS_OPTIONS,
        allowPositionals: true,
      });
      const [input] = positionals;
      return input !== undefined && passRunsOnPool(input, values['write-back'] === true)
        ? [input]
        : [];
    }
    const { values, positionals } = parseArgs({
      args: argv,
      options: MERGE_OPTIONS,
      allowPositionals: true,
    });
    const parts = positionals.slice(1);
    const input = values.input ?? (parts[0] === undefined ? undefined : headerInput(parts[0]));
    return input === undefined ? parts : [...parts, input];
  } catch {
    return [];
  }
}

/**
 * Before a batch command starts any thread: when its engine workers fill the
 * cores, each compiles its hot code in place (v8-flags.ts). The settings are
 * read later (they are in the data folder's database): where `engine.workers`
 * asks for fewer than the cores, the workers still compile in place.
 */
export function tuneV8ForWorkers(): void {
  const flags = fullPoolV8Flags(
    engineWorkers(),
    availableParallelism(),
    process.execArgv,
    process.env,
  );
  for (const flag of flags) setFlagsFromString(flag);
}

/**
 * Starts the engine pool's workers for `svc audit|fix|refine IN` before the
 * command loads its own modules, when the arguments and the environment say
 * that the whole pass will run on them (file-ops.ts decides it again, with
 * the settings): a worker's start (its modules, ~0.3 s) then overlaps the
 * command's (~0.3 s) instead of following it. Each run pays that start once
 * whatever the number of cores, so on many cores it was a large part of a
 * pass of 100,000 rows.
 *
 * The settings are not read here (they are in the data folder's database):
 * if they choose an upstream engine the pool goes unused and its workers
 * retire once idle; another worker count resizes the pool.
 */
export function startFilePassAhead(argv: string[]): void {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FILE_OPS_OPTIONS, allowPositionals: true });
  } catch {
    return; // the command itself says what is wrong
  }
  const { values, positionals } = parsed;
  const [input] = positionals;
  if (input === undefined || positionals.length !== 1) return;
  if (!passRunsOnPool(input, values['write-back'] === true)) return;
  if (upstreamInEnv(process.env, 'audit') || upstreamInEnv(process.env, 'fix')) return;
  // They will run the engine: each loads it while the main thread loads the command.
  prestartFilePass(filePassPool(), { fileTasks: true, engine: true });
}

/**
 * Whether a pass over `input` on the builtin engine runs whole on the pool's
 * workers (file-ops.ts): a JSON Lines file, a shard's or not, no write-back,
 * and the sliced pass not turned off. The rest runs a row at a time.
 */
export function passRunsOnPool(input: string, writeBack: boolean): boolean {
  return !writeBack && formatFromPath(input) === 'jsonl' && process.env.SVC_FILE_PASS !== 'rows';
}

/**
 * The same for `svc merge OUT PART...`: a merge of a JSON Lines file runs on
 * the workers (the input is `--input`, else the one the first part's header
 * names). Whatever this cannot read (a missing part, no header), the command
 * reads again and reports.
 */
export function startMergeAhead(argv: string[]): void {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: MERGE_OPTIONS, allowPositionals: true });
  } catch {
    return;
  }
  const [, first] = parsed.positionals;
  if (first === undefined) return;
  const input = parsed.values.input ?? headerInput(first);
  if (input !== undefined && formatFromPath(input) === 'jsonl') {
    prestartFilePass(filePassPool(), { fileTasks: true });
  }
}

/** The input a part's header (its first line) names, if it reads as one in its first 64 KiB. */
function headerInput(part: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(part, 'r');
    const bytes = Buffer.alloc(64 * 1024);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    const end = bytes.subarray(0, read).indexOf(10);
    if (end < 0) return undefined;
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as { input?: { path?: unknown } };
    return typeof header.input?.path === 'string' ? header.input.path : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
