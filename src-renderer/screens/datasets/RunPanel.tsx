import { useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { RunEstimate, RunRequest } from '../../../src-shared/owner/runs.ts';
import { count } from '../../format.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { NumberField } from '../../components/NumberField.tsx';
import { useGrid } from '../../state/grid.ts';

type ScopeKind = 'all' | 'filter' | 'selection';
type Operation = 'audit' | 'fix' | 'refine';

/** Audit, fix or refine on all rows, the filtered rows or the selection: estimate, start, progress, cancel. */
export function RunPanel({ datasetId }: { datasetId: string }) {
  const { filter, selection, run, runsRead } = useGrid();
  // Until the user picks one, the operation is the last run's: after a reload the panel must
  // not offer "Start audit" under a "refine … done" status.
  const [chosen, setChosen] = useState<{ datasetId: string; operation: Operation } | null>(null);
  const operation: Operation =
    (chosen?.datasetId === datasetId ? chosen.operation : undefined) ??
    (run?.dataset_id === datasetId ? run.operation : undefined) ??
    'audit';
  const setOperation = (next: Operation) => setChosen({ datasetId, operation: next });
  const [scopeKind, setScopeKind] = useState<ScopeKind>('all');
  // null while the field holds no valid number: Estimate and Start wait for one
  const [votes, setVotes] = useState<number | null>(1);
  const [attempts, setAttempts] = useState<number | null>(3);
  const [conventions, setConventions] = useState('');
  const [estimate, setEstimate] = useState<RunEstimate | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  const request = (): RunRequest => {
    const scope =
      scopeKind === 'all'
        ? { kind: 'all' as const }
        : scopeKind === 'filter'
          ? { kind: 'filter' as const, filter }
          : { kind: 'selection' as const, indices: [...selection] };
    const common = { dataset_id: datasetId, scope, ...(conventions ? { conventions } : {}) };
    const v = votes ?? 1;
    const a = attempts ?? 3;
    if (operation === 'audit') return { ...common, operation, config: { votes: v } };
    if (operation === 'fix') return { ...common, operation, config: { max_attempts: a } };
    return {
      ...common,
      operation,
      config: { audit: { votes: v }, fix: { max_attempts: a }, reaudit: { votes: v } },
    };
  };
  const guard = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e as AppError);
    }
  };
  const running = run?.status === 'running';
  const invalid =
    (operation !== 'fix' && votes === null) || (operation !== 'audit' && attempts === null);
  const start = async () => {
    setEstimate(null); // it spoke of the rows before this run
    useGrid.getState().setRun(await api.startRun(request()));
  };

  return (
    <div className="run-panel" aria-label="Run">
      <select
        aria-label="Operation"
        value={operation}
        onChange={(e) => setOperation(e.target.value as Operation)}
      >
        <option value="audit">Audit</option>
        <option value="fix">Fix</option>
        <option value="refine">Refine</option>
      </select>
      <select
        aria-label="Rows"
        value={scopeKind}
        onChange={(e) => setScopeKind(e.target.value as ScopeKind)}
      >
        <option value="all">all rows</option>
        <option value="filter">filtered rows</option>
        <option value="selection" disabled={selection.size === 0}>
          selection ({selection.size})
        </option>
      </select>
      {/*
        Both fields are always there, the one the operation does not use disabled: the bar keeps
        its width, so it never wraps anew (moving the grid under the pointer) when the operation
        changes, by the user or when the last run's is read after a reload.
      */}
      <label
        className="inline"
        title={
          operation === 'fix' ? 'A fix alone does not audit' : 'Audit passes per sample, 1 to 9'
        }
      >
        votes{' '}
        <NumberField
          label="votes"
          min={1}
          max={9}
          integer
          value={1}
          onChange={setVotes}
          disabled={operation === 'fix'}
        />
      </label>
      <label
        className="inline"
        title={
          operation === 'audit'
            ? 'An audit alone does not fix'
            : 'Fix candidates tried per sample, 1 to 5'
        }
      >
        attempts{' '}
        <NumberField
          label="attempts"
          min={1}
          max={5}
          integer
          value={3}
          onChange={setAttempts}
          disabled={operation === 'audit'}
        />
      </label>
      <input
        className="conventions"
        aria-label="Conventions"
        placeholder="Conventions, e.g. “E-mail addresses are fine.”"
        value={conventions}
        maxLength={4000}
        onChange={(e) => setConventions(e.target.value)}
      />
      <button
        type="button"
        className="button"
        disabled={running || invalid}
        onClick={() => void guard(async () => setEstimate(await api.estimateRun(request())))}
      >
        Estimate
      </button>
      <button
        type="button"
        className="button primary start-run"
        disabled={running || invalid}
        onClick={() => void guard(start)}
      >
        Start {operation}
      </button>
      {estimate && !running && (
        <span
          className="muted"
          data-testid="estimate"
          title="Your own runs spend no credit; this is what the tokens would cost at the rates."
        >
          {estimate.samples.toLocaleString('en-US')} samples,{' '}
          {estimate.max_cost_usd === null ? (
            <>
              a short run (about a second): not estimated further, start it. A first look at{' '}
              {count(estimate.trial_rows, 'row')}: usage about $
              {estimate.expected_cost_usd.toFixed(2)} at the rates, not charged
            </>
          ) : (
            <>
              usage about ${estimate.expected_cost_usd.toFixed(2)} (at most $
              {estimate.max_cost_usd.toFixed(2)}) at the rates, not charged
            </>
          )}
        </span>
      )}
      {/*
        The status line is always there, on a line of its own: it held no room until the
        dataset's runs were read, so the toolbar and the grid jumped down by a line under the
        pointer and a click meant for a row landed on the header (e2e glance-diff at 1440x900).
      */}
      {!run && (
        <span className="run-status muted" data-testid="no-run">
          {runsRead ? 'No run of this dataset yet.' : ''}
        </span>
      )}
      {run && (
        <span className="run-status" data-testid="run-status">
          <strong>{run.operation}</strong>
          <progress max={Math.max(1, run.total)} value={run.done} />{' '}
          {run.done.toLocaleString('en-US')}/{run.total.toLocaleString('en-US')} ·{' '}
          {run.rate_per_s.toFixed(0)}/s ·{' '}
          <span title="What the tokens would cost at the rates; your own runs are not charged">
            usage ${run.cost_usd.toFixed(2)}
          </span>{' '}
          · {run.status}
          {running && (
            <button
              type="button"
              className="button small"
              onClick={() =>
                void guard(async () =>
                  useGrid.getState().setRun(await api.cancelRun({ run_id: run.id })),
                )
              }
            >
              Cancel
            </button>
          )}
          {run.error && <span className="error-text"> {run.error}</span>}
        </span>
      )}
      {error && <ErrorBanner error={error} />}
    </div>
  );
}
