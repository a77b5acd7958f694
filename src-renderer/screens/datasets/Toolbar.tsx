import { useEffect, useRef, useState } from 'react';
import { checksFor, DATASET_CHECKS } from '../../../src-shared/checks.ts';
import type { AppError } from '../../../src-shared/errors.ts';
import type { DatasetSummary, RowFilter } from '../../../src-shared/owner/datasets.ts';
import { fieldPaths } from '../../../src-shared/row-fields.ts';
import { api } from '../../api/client.ts';
import { BulkDecision } from './BulkDecision.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useGrid } from '../../state/grid.ts';
import { useIndexing } from '../../state/indexing.ts';
import { count } from '../../format.ts';
import { benchmarkTitle } from './contamination/benchmarks.ts';

/** A pause this long in typing settles the search box (shorter pauses fall between keys). */
const SEARCH_DELAY_MS = 400;

const MORE_FLAGS = ['unverified', 'warned', 'repeats'] as const;

/** How many of the first rows name the fields a search can be limited to. */
const FIELD_SAMPLE_ROWS = 5;

/** The fields of the dataset's first rows as read (`meta`, `meta.src`, ...), for the search's field. */
function useRowFields(dataset: DatasetSummary): string[] {
  const [fields, setFields] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    const indices = [...Array(Math.min(dataset.rows, FIELD_SAMPLE_ROWS)).keys()];
    void Promise.allSettled(
      indices.map((index) => api.datasetRow({ dataset_id: dataset.id, index })),
    ).then((rows) => {
      const paths = new Set<string>();
      for (const row of rows) {
        if (row.status === 'fulfilled')
          for (const path of fieldPaths(row.value.original)) paths.add(path);
      }
      if (live) setFields([...paths]);
    });
    return () => {
      live = false;
    };
  }, [dataset.id, dataset.rows]);
  return fields;
}

const FLAG_LABELS = {
  flagged: 'flagged',
  changed: 'changed',
  unverified: 'undecided',
  warned: 'warnings',
  repeats: 'repeats',
} as const;

/** Search, filters, the selection, and the bulk decisions for what the filter shows. */
export function Toolbar({ dataset }: { dataset: DatasetSummary }) {
  const { filter, setFilter, total, refresh, selection, clearSelection } = useGrid();
  const indexing = useIndexing((s) => s.percent[dataset.id]);
  const [search, setSearch] = useState(filter.search ?? '');
  const [error, setError] = useState<AppError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fields = useRowFields(dataset);
  const update = (patch: Partial<RowFilter>) => {
    const next: RowFilter = { ...filter, ...patch };
    for (const key of Object.keys(next) as (keyof RowFilter)[]) {
      if (next[key] === undefined || next[key] === '' || next[key] === false)
        Reflect.deleteProperty(next, key);
    }
    setDone(null);
    setFilter(next);
  };
  // One query per settled input: the search applies after a pause in typing, or at once on
  // Enter (which cancels the pause's), and only when it differs from the search shown.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const applySearch = (text: string) => {
    clearTimeout(pending.current);
    pending.current = undefined;
    const wanted = text.trim() || undefined;
    if (wanted === useGrid.getState().filter.search) return;
    update({ search: wanted });
  };
  useEffect(() => {
    if (search.trim() === (filter.search ?? '')) return;
    pending.current = setTimeout(() => applySearch(search), SEARCH_DELAY_MS);
    return () => clearTimeout(pending.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the typed text starts a search
  }, [search]);

  const bulk = async (decision: 'accepted' | 'rejected') => {
    setError(null);
    try {
      const { updated } = await api.decide({ dataset_id: dataset.id, filter, decision });
      setDone(
        updated === 0
          ? `No row was ${decision}: none of the rows shown has a fix to decide on.`
          : `${count(updated, 'row')} ${decision}.`,
      );
      refresh();
    } catch (e) {
      setError(e as AppError);
    }
  };
  const drop = async (decision: 'dropped' | 'restored') => {
    setError(null);
    try {
      const { updated } = await api.decide({ dataset_id: dataset.id, filter, decision });
      // The rows shown that were so already are not counted: say why the count is smaller.
      const already = total - updated;
      setDone(
        `${count(updated, 'row')} ${decision}` +
          (already > 0 ? ` (${count(already, 'was', 'were')} ${decision} already).` : '.'),
      );
      refresh();
    } catch (e) {
      setError(e as AppError);
    }
  };
  const shown = count(total, 'row');
  const flagChip = (flag: keyof typeof FLAG_LABELS) => (
    <label key={flag} className="chip">
      <input
        type="checkbox"
        checked={filter[flag] === true}
        onChange={(e) => update({ [flag]: e.target.checked })}
      />{' '}
      {FLAG_LABELS[flag]}
    </label>
  );
  return (
    <div className="toolbar" role="toolbar" aria-label="Filters">
      <input
        type="search"
        aria-label="Search"
        placeholder={filter.search_field ? `Search ${filter.search_field}…` : 'Search every field…'}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') applySearch(search);
        }}
      />
      <select
        aria-label="Which field to look in"
        className="search-field"
        value={filter.search_field ?? ''}
        onChange={(e) => update({ search_field: e.target.value || undefined })}
      >
        <option value="">in every field</option>
        {fields.map((field) => (
          <option key={field} value={field}>
            in {field}
          </option>
        ))}
      </select>
      {/* Searches answer meanwhile, partly by reading the rows not yet indexed. */}
      {indexing !== undefined && (
        <span className="badge info" role="status" aria-label="Search index">
          indexing… {indexing}%
        </span>
      )}
      <select
        aria-label="Failed check"
        value={filter.failed_check ?? ''}
        onChange={(e) => update({ failed_check: e.target.value || undefined })}
      >
        <option value="">any verdict</option>
        <option value="*">failed any check</option>
        {[...checksFor(dataset.task_types), ...DATASET_CHECKS].map((c) => (
          <option key={c} value={c}>
            failed {c}
          </option>
        ))}
      </select>
      {(['flagged', 'changed'] as const).map(flagChip)}
      {/* The rarer filters fold away, so the toolbar keeps to two lines at 1280 px. */}
      <details className="more-filters">
        <summary>
          more
          {MORE_FLAGS.some((flag) => filter[flag] === true)
            ? ` (${MORE_FLAGS.filter((flag) => filter[flag] === true).length})`
            : ''}
        </summary>
        <div className="more-filters-menu">{MORE_FLAGS.map(flagChip)}</div>
      </details>
      {filter.issue_code && (
        <span className="chip" data-testid="issue-filter">
          issue <code>{filter.issue_code}</code>
          {filter.severity ? ` (${filter.severity}s)` : ''}
          <button
            type="button"
            className="link-button"
            aria-label="Clear the issue filter"
            onClick={() => update({ issue_code: undefined, severity: undefined })}
          >
            ×
          </button>
        </span>
      )}
      {filter.warned_check && (
        <span className="chip" data-testid="warned-check-filter">
          warned on <code>{filter.warned_check}</code>
          <button
            type="button"
            className="link-button"
            aria-label="Clear the warning filter"
            onClick={() => update({ warned_check: undefined })}
          >
            ×
          </button>
        </span>
      )}
      {filter.benchmark && (
        <span className="chip" data-testid="benchmark-filter">
          holds {benchmarkTitle(filter.benchmark)}
          <button
            type="button"
            className="link-button"
            aria-label="Clear the benchmark filter"
            onClick={() => update({ benchmark: undefined })}
          >
            ×
          </button>
        </span>
      )}
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
        <option value="dropped">dropped</option>
      </select>
      <span className="muted" data-testid="row-count">
        {shown}
      </span>
      {selection.size > 0 && (
        <span className="chip" data-testid="selection">
          {count(selection.size, 'selected', 'selected')}
          <button type="button" className="link-button" onClick={clearSelection}>
            clear
          </button>
        </span>
      )}
      <span className="spacer" />
      {/* The bulk actions wrap as one group: never "Accept all shown" alone on a line. */}
      <span className="bulk-actions">
        {(['accepted', 'rejected'] as const).map((decision) => (
          <BulkDecision
            key={decision}
            datasetId={dataset.id}
            filter={filter}
            decision={decision}
            disabled={total === 0}
            onDecide={bulk}
            onError={(e) => setError(e as AppError)}
          />
        ))}
        <ConfirmButton
          label={filter.decision === 'dropped' ? 'Restore all shown' : 'Drop all shown'}
          className="button small"
          disabled={total === 0}
          question={
            filter.decision === 'dropped'
              ? `Restore ${shown}? The export takes them back.`
              : `Drop ${shown}? The export leaves them out; each can be restored.`
          }
          confirmLabel={filter.decision === 'dropped' ? 'Restore' : 'Drop'}
          onConfirm={() => drop(filter.decision === 'dropped' ? 'restored' : 'dropped')}
        />
      </span>
      {done && (
        <span className="muted" role="status" data-testid="bulk-result">
          {done}
        </span>
      )}
      {error && <ErrorBanner error={error} />}
    </div>
  );
}
