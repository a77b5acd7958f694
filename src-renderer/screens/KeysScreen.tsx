import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { AppError } from '../../src-shared/errors.ts';
import type {
  Credits,
  HistoryItem,
  KeyRecord,
  LedgerEntry,
  SpendDay,
} from '../../src-shared/owner/account.ts';
import { api } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { CreditCard } from './keys/CreditCard.tsx';
import { HistoryTable } from './keys/HistoryTable.tsx';
import { KeysCard } from './keys/KeysCard.tsx';
import { LedgerTable } from './keys/LedgerTable.tsx';

const PAGE = 100;

/** Keys & credits: the profile page of the interface. */
export function KeysScreen() {
  const [keys, setKeys] = useState<z.infer<typeof KeyRecord>[]>([]);
  const [credits, setCredits] = useState<z.infer<typeof Credits> | null>(null);
  const [ledger, setLedger] = useState<z.infer<typeof LedgerEntry>[]>([]);
  const [spend, setSpend] = useState<z.infer<typeof SpendDay>[]>([]);
  const [history, setHistory] = useState<z.infer<typeof HistoryItem>[]>([]);
  const [more, setMore] = useState({ ledger: false, history: false });
  const [error, setError] = useState<AppError | null>(null);

  // Bumped after every change; the effect reloads everything the screen shows.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    Promise.all([
      api.listKeys({}),
      api.credits({}),
      api.ledger({ limit: PAGE }),
      api.spendByDay({ days: 30 }),
      api.history({ limit: PAGE }),
    ]).then(
      ([k, c, l, s, h]) => {
        if (!live) return;
        setKeys(k);
        setCredits(c);
        setLedger(l);
        setSpend(s);
        setHistory(h);
        setMore({ ledger: l.length === PAGE, history: h.length === PAGE });
      },
      (e: unknown) => live && setError(e as AppError),
    );
    return () => {
      live = false;
    };
  }, [version]);
  const run = useCallback((work: () => Promise<void>) => {
    setError(null);
    work().then(
      () => setVersion((v) => v + 1),
      (e: unknown) => setError(e as AppError),
    );
  }, []);
  // Paging adds to what is shown; it does not reload the screen.
  const page = (work: () => Promise<void>) => {
    setError(null);
    work().catch((e: unknown) => setError(e as AppError));
  };
  const olderLedger = () =>
    page(async () => {
      const older = await api.ledger({ limit: PAGE, before_id: ledger.at(-1)?.id });
      setLedger((current) => [...current, ...older]);
      setMore((m) => ({ ...m, ledger: older.length === PAGE }));
    });
  const olderHistory = () =>
    page(async () => {
      const older = await api.history({ limit: PAGE, before_id: history.at(-1)?.id });
      setHistory((current) => [...current, ...older]);
      setMore((m) => ({ ...m, history: older.length === PAGE }));
    });

  return (
    <section className="screen" aria-labelledby="keys-title">
      <header className="screen-header">
        <h1 id="keys-title">Keys &amp; credits</h1>
      </header>
      {error && <ErrorBanner error={error} />}
      <div className="cards">
        <KeysCard keys={keys} run={run} />
        <CreditCard credits={credits} spend={spend} run={run} />
      </div>
      <LedgerTable
        entries={ledger}
        keyNames={new Map(keys.map((k) => [k.id, k.name]))}
        onOlder={olderLedger}
        hasOlder={more.ledger}
      />
      <HistoryTable items={history} onOlder={olderHistory} hasOlder={more.history} />
    </section>
  );
}
