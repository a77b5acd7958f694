import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { KeepBoth } from '../../../src-shared/owner/datasets.ts';
import type { Db } from '../../store/db.ts';
import { rowRecord } from '../../store/datasets-rows.ts';
import { keepPairApart } from '../../store/kept-pairs.ts';
import { readyDataset } from './summary.ts';

/**
 * Keeps two rows a scan took for duplicates: the pair is remembered, and
 * every later scan leaves the copy out of the group of the row it seemed to
 * repeat (its `duplicates` verdict goes with the next scan).
 */
export function keepBoth(db: Db, input: z.output<typeof KeepBoth>): { updated: number } {
  const dataset = readyDataset(db, input.dataset_id);
  if (input.index === input.duplicate_of) {
    throw new AppError('invalid_request', 'a row cannot be kept apart from itself');
  }
  for (const index of [input.index, input.duplicate_of]) {
    if (!rowRecord(db, dataset.id, index)) {
      throw new AppError('not_found', `dataset ${input.dataset_id} has no row ${index}`);
    }
  }
  keepPairApart(db, dataset.id, input.index, input.duplicate_of);
  return { updated: 1 };
}
