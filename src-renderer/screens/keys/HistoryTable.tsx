import type { z } from 'zod';
import type { HistoryItem } from '../../../src-shared/owner/account.ts';
import { groupByRequest } from './group.ts';
import { toSecond } from '../../format.ts';

type Item = z.infer<typeof HistoryItem>;

/** Where the owner's runs come from (the app, the CLI): never charged. */
const OWN_RUNS: ReadonlySet<string> = new Set(['app', 'cli']);

/** Fix and refine history (30 days), one line per request or app run. */
export function HistoryTable({
  items,
  onOlder,
  hasOlder,
}: {
  items: Item[];
  onOlder: () => void;
  hasOlder: boolean;
}) {
  const groups = groupByRequest(items);
  return (
    <>
      <h2>History of fix and refine (30 days)</h2>
      <table className="table compact" data-testid="history">
        <thead>
          <tr>
            <th>When</th>
            <th>Operation</th>
            <th>From</th>
            <th className="num">Samples</th>
            <th className="num">Charged</th>
            <th>Request</th>
          </tr>
        </thead>
        <tbody>
          {groups.map(({ first, entries }) => {
            const samples = entries.reduce((sum, e) => sum + (e.samples ?? 0), 0);
            const micro = entries.reduce((sum, e) => sum + Math.round(e.cost_usd * 1e6), 0);
            return (
              <tr key={first.id}>
                <td>{toSecond(first.created_at)}</td>
                <td>{first.operation}</td>
                <td>{first.source}</td>
                <td className="num">{samples.toLocaleString('en-US')}</td>
                <td className="num">
                  {/* The owner's own runs spend no credit: "$0.00" read as if they were free.
                      What their tokens are worth is in the per-day usage chart. */}
                  {OWN_RUNS.has(first.source) ? (
                    <span className="muted">own run</span>
                  ) : (
                    `$${(micro / 1e6).toFixed(2)}`
                  )}
                </td>
                <td>
                  <code>{first.request_id}</code>
                </td>
              </tr>
            );
          })}
          {groups.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No fix or refine in the last 30 days.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {hasOlder && (
        <button type="button" className="button small" onClick={onOlder}>
          Show older
        </button>
      )}
    </>
  );
}
