import { useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { RowFilter } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useGrid } from '../../state/grid.ts';

const CHECKS = [
  'fluency',
  'coherence',
  'formatting',
  'safety',
  'encoding',
  'answer_index',
  'choices',
  'style',
  'answer_leak',
  'label_correct',
  'completeness',
  'arithmetic',
  'final_answer',
  'answer_correct',
  'roles',
  'empty_turns',
  'alternation',
];

/** Search, filters and the bulk decisions for what the filter shows. */
export function Toolbar({ datasetId }: { datasetId: string }) {
  const { filter, setFilter, total, refresh } = useGrid();
  const [search, setSearch] = useState(filter.search ?? '');
  const [error, setError] = useState<AppError | null>(null);
  const update = (patch: Partial<RowFilter>) => {
    const next: RowFilter = { ...filter, ...patch };
    for (const key of Object.keys(next) as (keyof RowFilter)[]) {
      if (next[key] === undefined || next[key] === '' || next[key] === false)
        Reflect.deleteProperty(next, key);
    }
    setFilter(next);
  };
  const bulk = async (decision: 'accepted' | 'rejected') => {
    try {
      await api.decide({ dataset_id: datasetId, filter, decision });
      refresh();
    } catch (e) {
      setError(e as AppError);
    }
  };
  return (
    <div className="toolbar" role="toolbar" aria-label="Filters">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          update({ search });
        }}
      >
        <input
          type="search"
          aria-label="Search"
          placeholder="Search text…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </form>
      <select
        aria-label="Failed check"
        value={filter.failed_check ?? ''}
        onChange={(e) => update({ failed_check: e.target.value || undefined })}
      >
        <option value="">any verdict</option>
        <option value="*">failed any check</option>
        {CHECKS.map((c) => (
          <option key={c} value={c}>
            failed {c}
          </option>
        ))}
      </select>
      {(['flagged', 'changed', 'unverified'] as const).map((flag) => (
        <label key={flag} className="chip">
          <input
            type="checkbox"
            checked={filter[flag] === true}
            onChange={(e) => update({ [flag]: e.target.checked })}
          />{' '}
          {flag}
        </label>
      ))}
      <select
        aria-label="Decision"
        value={filter.decision ?? ''}
        onChange={(e) =>
          update({ decision: (e.target.value || undefined) as RowFilter['decision'] })
        }
      >
        <option value="">any decision</option>
        <option value="pending">pending</option>
        <option value="accepted">accepted</option>
        <option value="rejected">rejected</option>
      </select>
      <span className="muted" data-testid="row-count">
        {total.toLocaleString('en-US')} rows
      </span>
      <span className="spacer" />
      <button type="button" className="button" onClick={() => void bulk('accepted')}>
        Accept all shown
      </button>
      <button type="button" className="button" onClick={() => void bulk('rejected')}>
        Reject all shown
      </button>
      {error && <ErrorBanner error={error} />}
    </div>
  );
}
