import { parseArgs } from 'node:util';
import { formatFromPath } from '../files/format.ts';
import { filePassPool } from '../service/runs/pool/engine-pool.ts';
import { upstreamInEnv } from '../service/runs/upstream-env.ts';
import { FILE_OPS_OPTIONS } from './file-ops-options.ts';

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
  if (values.shard !== undefined || values['write-back'] === true) return;
  if (formatFromPath(input) !== 'jsonl' || process.env.SVC_FILE_PASS === 'rows') return;
  if (upstreamInEnv(process.env, 'audit') || upstreamInEnv(process.env, 'fix')) return;
  filePassPool()?.prestart();
}
