import { useState } from 'react';
import type { z } from 'zod';
import type { LedgerEntry } from '../../../src-shared/owner/account.ts';
import { groupByRequest } from './group.ts';
import { amountOf } from './ledger-amount.ts';
import { toSecond } from '../../format.ts';

type Entry = z.infer<typeof LedgerEntry>;

/**
 * The ledger, newest first. Holds and their releases (one pair per API
 * request) are hidden unless asked for; consecutive charges of one run are
 * one line with their count and sum.
 */
export function LedgerTable({
  entries,
  keyNames,
  onOlder,
  hasOlder,
}: {
  entries: Entry[];
  /** Key id -> its name, to say which key a request was billed to. */
  keyNames: ReadonlyMap<string, string>;
  onOlder: () => void;
  hasOlder: boolean;
}) {
  const [showHolds, setShowHolds] = useState(false);
  const shown = showHolds
    ? entries
    : entries.filter((e) => e.kind === 'grant' || e.kind === 'charge');
  const groups = groupByRequest(shown, (a, b) => a.kind === b.kind && a.kind === 'charge');
  return (
    <>
      <div className="section-head">
        <h2>Ledger</h2>
        <label className="chip">
          <input
            type="checkbox"
            checked={showHolds}
            onChange={(e) => setShowHolds(e.target.checked)}
          />{' '}
          show holds and releases
        </label>
      </div>
      <table className="table compact" data-testid="ledger">
        <thead>
          <tr>
            <th>When</th>
            <th>Kind</th>
            <th className="num">Amount</th>
            <th>Memo</th>
            <th>Request</th>
          </tr>
        </thead>
        <tbody>
          {groups.map(({ first, entries: group }) => {
            const micro = group.reduce((sum, e) => sum + Math.round(e.amount_usd * 1e6), 0);
            return (
              <tr key={first.id}>
                <td>
                  {group.length > 1 ? `${toSecond(group.at(-1)?.created_at ?? '')} – ` : ''}
                  {toSecond(first.created_at)}
                </td>
                <td>{group.length > 1 ? `${group.length} ${first.kind}s` : first.kind}</td>
                <td className="num">{amountOf(first.kind, (micro / 1e6).toFixed(2))}</td>
                <td>
                  {group.length > 1 ? first.memo.replace(/, batch \d+ .*$/, '') : first.memo}
                  {first.key_id && (
                    <span className="muted">
                      {' '}
                      · key {keyNames.get(first.key_id) || first.key_id}
                    </span>
                  )}
                </td>
                <td>{first.request_id && <code>{first.request_id}</code>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {showHolds && (
        <p className="muted small">
          A hold sets credit aside while its request runs and leaves the balance as it is; the
          request&apos;s charge, or a release when it fails, closes it.
        </p>
      )}
      {hasOlder && (
        <button type="button" className="button small" onClick={onOlder}>
          Show older entries
        </button>
      )}
    </>
  );
}
