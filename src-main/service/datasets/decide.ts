import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { Decision } from '../../../src-shared/owner/datasets.ts';
import type { Db } from '../../store/db.ts';
import { setDecision } from '../../store/datasets-rows.ts';
import { readyDataset } from './summary.ts';

/**
 * Accepts or rejects fixes (or makes them pending again with `null`), for
 * rows by index or for every row matching a filter (both: the listed rows
 * that match). Only rows whose fix changed something can be accepted or
 * rejected; the others are skipped. Returns how many rows were set.
 */
export function decide(db: Db, input: z.output<typeof Decision>): { updated: number } {
  readyDataset(db, input.dataset_id);
  if (input.indices === undefined && input.filter === undefined) {
    throw new AppError('invalid_request', 'name the rows: `indices`, or a `filter` (`{}` for all)');
  }
  const updated = setDecision(db, input.dataset_id, input.decision, {
    indices: input.indices,
    filter: input.filter,
  });
  return { updated };
}
