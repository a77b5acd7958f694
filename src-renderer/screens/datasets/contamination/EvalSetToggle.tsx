import { useState } from 'react';
import type { AppError } from '../../../../src-shared/errors.ts';
import type { DatasetSummary } from '../../../../src-shared/owner/datasets.ts';
import { api } from '../../../api/client.ts';
import { ErrorBanner } from '../../../components/ErrorBanner.tsx';
import { useGrid } from '../../../state/grid.ts';

/**
 * Marks the open dataset as an evaluation set, or unmarks it: the scans of
 * every other dataset look for its rows (`split_overlap`) while it is one.
 * The server rescans the others; the list shows the new state at once.
 */
export function EvalSetToggle({ dataset }: { dataset: DatasetSummary }) {
  const loadDatasets = useGrid((s) => s.loadDatasets);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.setEvalSet({ dataset_id: dataset.id, eval_set: !dataset.eval_set });
      await loadDatasets();
    } catch (e) {
      setError(e as AppError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="eval-set-toggle">
      {dataset.eval_set && (
        <span
          className="badge info"
          data-testid="eval-set-state"
          title="The scans of the other datasets look for its rows"
        >
          evaluation set
        </span>
      )}
      <button
        type="button"
        className="button small"
        disabled={busy}
        aria-pressed={dataset.eval_set}
        title={
          dataset.eval_set
            ? 'The other datasets stop being checked for rows of this one'
            : 'The other datasets are checked for rows of this one (split_overlap)'
        }
        onClick={() => void toggle()}
      >
        {dataset.eval_set ? 'Not an evaluation set' : 'Mark as evaluation set'}
      </button>
      {error && <ErrorBanner error={error} />}
    </span>
  );
}
