import { useState } from 'react';
import type { RowFilter } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { count } from '../../format.ts';

/** " 3 are accepted already." (none: nothing), for the question before a bulk decision. */
function alreadyNote(already: number, fixes: number, decision: string): string {
  if (already === 0) return '';
  if (already === fixes) return ` ${fixes === 1 ? 'It is' : 'All are'} ${decision} already.`;
  return ` ${count(already, 'is', 'are')} ${decision} already.`;
}

/**
 * "Accept all shown" / "Reject all shown": first counts what it would decide
 * (only rows with a fix take a decision, and some of those may be flagged),
 * says so, and acts on the second click.
 */
export function BulkDecision({
  datasetId,
  filter,
  decision,
  disabled,
  onDecide,
  onError,
}: {
  datasetId: string;
  filter: RowFilter;
  decision: 'accepted' | 'rejected';
  disabled: boolean;
  onDecide: (decision: 'accepted' | 'rejected') => Promise<void>;
  onError: (error: unknown) => void;
}) {
  const [asking, setAsking] = useState<{ fixes: number; flagged: number; already: number } | null>(
    null,
  );
  const verb = decision === 'accepted' ? 'Accept' : 'Reject';
  const ask = async () => {
    const total = async (extra: RowFilter) =>
      (
        await api.datasetRows({
          dataset_id: datasetId,
          offset: 0,
          limit: 1,
          filter: { ...filter, ...extra },
        })
      ).total;
    try {
      // Those decided so already: a filter on another decision shows none of them.
      const sameDecision = filter.decision === undefined || filter.decision === decision;
      const [fixes, flagged, already] = await Promise.all([
        total({ changed: true }),
        total({ changed: true, flagged: true }),
        sameDecision ? total({ changed: true, decision }) : Promise.resolve(0),
      ]);
      setAsking({ fixes, flagged, already });
    } catch (error) {
      onError(error);
    }
  };
  if (!asking) {
    return (
      <button type="button" className="button" disabled={disabled} onClick={() => void ask()}>
        {verb} all shown
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      {asking.fixes === 0 ? (
        <span>No row shown has a fix to {verb.toLowerCase()}.</span>
      ) : (
        <>
          <span>
            {verb} the fixes of {count(asking.fixes, 'row')}?
            {alreadyNote(asking.already, asking.fixes, decision)}
            {asking.flagged > 0 &&
              ` ${count(asking.flagged, 'is', 'are')} flagged: a check still fails after the fix.`}
          </span>
          <button
            type="button"
            // Accepting is the common, wanted act: only rejecting looks like a warning.
            className={`button small ${decision === 'accepted' ? 'primary' : 'danger'}`}
            onClick={() => {
              setAsking(null);
              void onDecide(decision);
            }}
          >
            {verb}
          </button>
        </>
      )}
      <button type="button" className="button small" onClick={() => setAsking(null)}>
        {asking.fixes === 0 ? 'OK' : 'Cancel'}
      </button>
    </span>
  );
}
