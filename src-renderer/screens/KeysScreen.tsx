import { useEffect, useState } from 'react';
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
import { CopyButton } from '../components/CopyButton.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { SpendChart } from '../components/SpendChart.tsx';

type Key = z.infer<typeof KeyRecord>;

/** Keys & credits: the profile page of the interface. */
export function KeysScreen() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [credits, setCredits] = useState<z.infer<typeof Credits> | null>(null);
  const [ledger, setLedger] = useState<z.infer<typeof LedgerEntry>[]>([]);
  const [spend, setSpend] = useState<z.infer<typeof SpendDay>[]>([]);
  const [history, setHistory] = useState<z.infer<typeof HistoryItem>[]>([]);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [amount, setAmount] = useState('10');
  const [error, setError] = useState<AppError | null>(null);

  // Bumped after every change; the effect reloads everything the screen shows.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    Promise.all([
      api.listKeys({}),
      api.credits({}),
      api.ledger({ limit: 50 }),
      api.spendByDay({ days: 30 }),
      api.history({ limit: 50 }),
    ]).then(
      ([k, c, l, s, h]) => {
        if (!live) return;
        setKeys(k);
        setCredits(c);
        setLedger(l);
        setSpend(s);
        setHistory(h);
      },
      (e: unknown) => live && setError(e as AppError),
    );
    return () => {
      live = false;
    };
  }, [version]);
  const guard = (work: () => Promise<void>) => () => {
    setError(null);
    work().then(
      () => setVersion((v) => v + 1),
      (e: unknown) => setError(e as AppError),
    );
  };

  return (
    <section className="screen" aria-labelledby="keys-title">
      <header className="screen-header">
        <h1 id="keys-title">Keys &amp; credits</h1>
      </header>
      {error && <ErrorBanner error={error} />}
      <div className="cards">
        <div className="card">
          <h2>API keys</h2>
          <form
            className="form-row"
            onSubmit={(e) => {
              e.preventDefault();
              guard(async () => {
                const created = await api.createKey({ name });
                setNewKey(created.key);
                setName('');
              })();
            }}
          >
            <input
              aria-label="Key name"
              placeholder="Name (e.g. notebook)"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <button type="submit" className="button primary">
              Create key
            </button>
          </form>
          {newKey && (
            <div className="banner ok" role="status">
              <strong>Copy this key now: it is shown only once.</strong>
              <span>
                <code data-testid="new-key">{newKey}</code> <CopyButton text={newKey} />
              </span>
            </div>
          )}
          <table className="table compact" data-testid="keys-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name || '—'}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{key.created_at.slice(0, 16).replace('T', ' ')}</td>
                  <td>{key.last_used_at?.slice(0, 16).replace('T', ' ') ?? 'never'}</td>
                  <td>
                    {key.revoked_at ? (
                      <span className="badge neutral">revoked</span>
                    ) : (
                      <span className="badge ok">active</span>
                    )}
                  </td>
                  <td>
                    {!key.revoked_at && (
                      <button
                        type="button"
                        className="button small"
                        onClick={guard(async () => {
                          await api.revokeKey({ id: key.id });
                        })}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="card">
          <h2>Credit</h2>
          {credits && (
            <dl className="facts" data-testid="credits">
              <dt>Balance</dt>
              <dd>${credits.balance_usd.toFixed(2)}</dd>
              <dt>Held by requests in flight</dt>
              <dd>${credits.held_usd.toFixed(2)}</dd>
              <dt>Available</dt>
              <dd>${credits.available_usd.toFixed(2)}</dd>
            </dl>
          )}
          <form
            className="form-row"
            onSubmit={(e) => {
              e.preventDefault();
              guard(async () => {
                await api.addCredits({ usd: Number(amount) });
              })();
            }}
          >
            <input
              aria-label="Amount in USD"
              type="number"
              min="0.01"
              step="0.01"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
            <button type="submit" className="button">
              Add credit
            </button>
          </form>
          <h3>Spend per day (30 days)</h3>
          <SpendChart days={spend} />
        </div>
      </div>
      <h2>Ledger</h2>
      <table className="table compact" data-testid="ledger">
        <thead>
          <tr>
            <th>When</th>
            <th>Kind</th>
            <th>Amount</th>
            <th>Memo</th>
            <th>Request</th>
          </tr>
        </thead>
        <tbody>
          {ledger.map((entry) => (
            <tr key={entry.id}>
              <td>{entry.created_at.slice(0, 19).replace('T', ' ')}</td>
              <td>{entry.kind}</td>
              <td className="num">${entry.amount_usd.toFixed(2)}</td>
              <td>{entry.memo}</td>
              <td>
                <code>{entry.request_id ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>History of fix and refine (30 days)</h2>
      <table className="table compact">
        <thead>
          <tr>
            <th>When</th>
            <th>Operation</th>
            <th>From</th>
            <th>Samples</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {history.map((item) => (
            <tr key={item.id}>
              <td>{item.created_at.slice(0, 19).replace('T', ' ')}</td>
              <td>{item.operation}</td>
              <td>{item.source}</td>
              <td className="num">{item.samples ?? '—'}</td>
              <td className="num">${item.cost_usd.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
