import { randomBytes } from 'node:crypto';

/** `ds_…` for datasets, `run_…` for runs: a prefix and 16 random hex digits. */
export const newId = (prefix: 'ds' | 'run'): string =>
  `${prefix}_${randomBytes(8).toString('hex')}`;
