import type { LedgerEntry } from '../../../src-shared/owner/account.ts';
import type { z } from 'zod';

/**
 * How an entry's amount reads. Grants and charges change the balance. A hold
 * only sets credit aside while its request runs, and its charge or its
 * release closes it: signed like a charge, a hold and the charge that closes
 * it read as twice the spend.
 */
export const amountOf = (kind: z.infer<typeof LedgerEntry>['kind'], usd: string): string =>
  kind === 'grant'
    ? `+$${usd}`
    : kind === 'charge'
      ? `−$${usd}`
      : `($${usd} ${kind === 'hold' ? 'held' : 'freed'})`;
