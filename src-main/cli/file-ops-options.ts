import type { ParseArgsConfig } from 'node:util';

/** The options of `svc audit|fix|refine IN` (file-ops.ts; pool-ahead.ts reads them first). */
export const FILE_OPS_OPTIONS = {
  out: { type: 'string', short: 'o' },
  votes: { type: 'string' },
  'max-attempts': { type: 'string' },
  conventions: { type: 'string' },
  'data-dir': { type: 'string' },
  'task-type': { type: 'string' },
  map: { type: 'string', multiple: true },
  'answer-form': { type: 'string' },
  shape: { type: 'string' },
  'write-back': { type: 'boolean' },
  'oasst-paths': { type: 'string' },
  report: { type: 'string' },
  shard: { type: 'string' },
  benchmarks: { type: 'string' },
  against: { type: 'string', multiple: true },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** What `svc audit|fix|refine` says of an option of one value given twice (args.ts). */
export const FILE_OPS_TWICE_HINTS = {
  benchmarks: 'several names as a comma list: gsm8k,math',
} as const;

/** The options of `svc merge OUT PART...` (merge.ts; pool-ahead.ts reads them first). */
export const MERGE_OPTIONS = {
  input: { type: 'string' },
  report: { type: 'string' },
  'data-dir': { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;
