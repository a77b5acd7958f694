import { useState } from 'react';
import { formatLabelOf } from '../../../src-shared/file-formats.ts';
import type { AppError } from '../../../src-shared/errors.ts';
import type { DatasetSummary } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useGrid } from '../../state/grid.ts';
import { useImport } from '../../state/imports.ts';
import { count, toMinute } from '../../format.ts';
import { BreakableName } from '../../components/BreakableName.tsx';

/** The imported datasets, newest first, each with its counts; it scrolls on its own. */
export function DatasetList({ datasets }: { datasets: DatasetSummary[] }) {
  const { datasetId, openDataset } = useGrid();
  // The import in progress counts its rows as it goes; the list is read again less often, and
  // its card said 20,507 rows beside a strip saying 45,961.
  const importingId = useImport((s) => s.datasetId);
  const importedRows = useImport((s) => s.progress?.rows ?? 0);
  const rowsOf = (d: DatasetSummary): number =>
    d.state === 'importing' && d.id === importingId ? Math.max(d.rows, importedRows) : d.rows;
  return (
    <nav className="dataset-list" aria-label="Datasets">
      {datasets.length === 0 && (
        <p className="muted">
          Drop a JSONL, JSON, CSV or Parquet file anywhere on the window, or import one.
        </p>
      )}
      <ul>
        {datasets.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              className={`dataset-item${d.id === datasetId ? ' active' : ''}`}
              aria-current={d.id === datasetId ? 'true' : undefined}
              onClick={() => openDataset(d.id)}
            >
              <strong title={d.name} className="dataset-name">
                <BreakableName text={d.name} />
              </strong>
              {d.eval_set && (
                <span
                  className="badge info"
                  title="An evaluation set: the scans of the other datasets look for its rows"
                >
                  eval set
                </span>
              )}
              <span className="muted">
                {count(rowsOf(d), 'row')}
                {d.state === 'importing' ? ' so far, importing…' : ''} · {d.shape} ·{' '}
                {formatLabelOf(d.format, d.file_name)}
              </span>
              {d.audited > 0 && (
                <span className="muted">
                  {d.failed.toLocaleString('en-US')} failed · {d.changed.toLocaleString('en-US')}{' '}
                  changed · {d.accepted.toLocaleString('en-US')} accepted
                </span>
              )}
              {d.dropped > 0 && (
                <span className="muted" data-testid="dataset-dropped">
                  {count(d.dropped, 'row')} dropped
                </span>
              )}
              <span className="muted small">
                <BreakableName text={d.file_name} /> · {toMinute(d.created_at)}
                {d.errors > 0 ? ` · ${d.errors.toLocaleString('en-US')} skipped` : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Deleting the open dataset (its rows, results and runs; the file on disk is not touched). */
export function DeleteDataset({ dataset }: { dataset: DatasetSummary }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const { openDataset, loadDatasets } = useGrid();
  if (!asking) {
    return (
      <button type="button" className="button small" onClick={() => setAsking(true)}>
        Delete dataset…
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm delete">
      Delete “{dataset.name}” and its {dataset.rows.toLocaleString('en-US')} rows with their
      results? The file you imported is not touched.
      <button
        type="button"
        className="button small danger"
        onClick={() =>
          void api
            .deleteDataset({ dataset_id: dataset.id })
            .then(async () => {
              openDataset(null);
              await loadDatasets();
            })
            .catch((e: unknown) => setError(e as AppError))
        }
      >
        Delete
      </button>
      <button type="button" className="button small" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error && <ErrorBanner error={error} />}
    </span>
  );
}
