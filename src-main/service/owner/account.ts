import { AppError } from '../../../src-shared/errors.ts';
import {
  balances,
  grant,
  ledgerEntries,
  OWNER_ACCOUNT_ID,
  spendByDay,
  type LedgerEntry,
} from '../billing/billing.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { listHistory } from '../runs/history.ts';
import { createKey, listKeys, revokeKey } from '../billing/keys.ts';
import { microToUsd, usdToMicro } from '../billing/money.ts';
import type { OwnerHandlers } from './handler-types.ts';
import { promised } from './promised.ts';
import { usageByDay } from '../../store/owner-usage.ts';

/** The owner methods on keys, credit, the ledger and the history: thin, amounts in USD. */

type AccountMethods =
  | 'listKeys'
  | 'createKey'
  | 'revokeKey'
  | 'credits'
  | 'addCredits'
  | 'ledger'
  | 'spendByDay'
  | 'history';

const key = (record: ReturnType<typeof listKeys>[number]) => ({
  id: record.id,
  name: record.name,
  prefix: record.prefix,
  created_at: record.created_at,
  last_used_at: record.last_used_at,
  revoked_at: record.revoked_at,
});

const ledgerEntry = (entry: LedgerEntry) => ({
  id: entry.id,
  kind: entry.kind,
  amount_usd: microToUsd(entry.amount_micro),
  memo: entry.memo,
  request_id: entry.request_id,
  key_id: entry.key_id,
  created_at: entry.created_at,
});

export function accountHandlers(ctx: ServiceContext): Pick<OwnerHandlers, AccountMethods> {
  const { db } = ctx;
  const credits = () => {
    const b = balances(db, OWNER_ACCOUNT_ID);
    return {
      balance_usd: microToUsd(b.balance_micro),
      held_usd: microToUsd(b.held_micro),
      available_usd: microToUsd(b.available_micro),
    };
  };
  return {
    listKeys: () => promised(() => listKeys(db).map(key)),
    createKey: ({ name }) =>
      promised(() => {
        const created = createKey(db, { name });
        return { key: created.key, record: key(created.record) };
      }),
    revokeKey: ({ id }) => promised(() => key(revokeKey(db, id))),
    credits: () => promised(credits),
    addCredits: ({ usd }) =>
      promised(() => {
        const micro = usdToMicro(usd);
        if (micro <= 0) throw new AppError('invalid_request', 'add at least one cent');
        grant(db, OWNER_ACCOUNT_ID, micro, 'credit added in the app');
        return credits();
      }),
    ledger: ({ limit, before_id }) =>
      promised(() =>
        ledgerEntries(db, OWNER_ACCOUNT_ID, {
          limit,
          ...(before_id === undefined ? {} : { beforeId: before_id }),
        }).map(ledgerEntry),
      ),
    spendByDay: ({ days }) =>
      promised(() => {
        const spend = spendByDay(db, OWNER_ACCOUNT_ID, days);
        const first = spend[0]?.day ?? '';
        const usage = new Map(
          usageByDay(db, `${first}T00:00:00.000Z`, '9999').map((u) => [u.day, u]),
        );
        return spend.map((d) => {
          const used = usage.get(d.day);
          return {
            day: d.day,
            charged_usd: microToUsd(d.charged_micro),
            usage_usd: microToUsd(used?.cost_micro ?? 0),
            usage_tokens: (used?.input_tokens ?? 0) + (used?.output_tokens ?? 0),
          };
        });
      }),
    history: ({ limit, before_id }) =>
      promised(() =>
        listHistory(db, {
          limit,
          accountId: OWNER_ACCOUNT_ID,
          ...(before_id === undefined ? {} : { beforeId: before_id }),
        }).map((item) => ({
          id: item.id,
          operation: item.operation,
          source: item.source,
          request_id: item.request_id,
          samples: item.samples,
          cost_usd: microToUsd(item.cost_micro),
          created_at: item.created_at,
        })),
      ),
  };
}
