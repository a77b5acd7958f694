import { useEffect, useRef } from 'react';
import { useGrid } from '../state/grid.ts';
import { useImport } from '../state/imports.ts';
import { ExportPanel } from './datasets/ExportPanel.tsx';
import { Grid } from './datasets/Grid.tsx';
import { ImportDialog } from './datasets/ImportDialog.tsx';
import { ReviewPanel } from './datasets/ReviewPanel.tsx';
import { RunPanel } from './datasets/RunPanel.tsx';
import { Toolbar } from './datasets/Toolbar.tsx';

/** Datasets: the list, the import, and the open dataset's grid with its runs, review and export. */
export function DatasetsScreen() {
  const { datasets, datasetId, loadDatasets, openDataset, detailIndex } = useGrid();
  const begin = useImport((s) => s.begin);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void loadDatasets().catch(() => undefined);
  }, [loadDatasets]);
  const dataset = datasets.find((d) => d.id === datasetId);

  return (
    <section className="screen datasets" aria-labelledby="datasets-title">
      <header className="screen-header">
        <h1 id="datasets-title">Datasets</h1>
        <div>
          <input
            ref={picker}
            type="file"
            hidden
            data-testid="file-picker"
            accept=".jsonl,.ndjson,.json,.csv,.parquet"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void begin(file);
              e.target.value = '';
            }}
          />
          <button type="button" className="button primary" onClick={() => picker.current?.click()}>
            Import a file…
          </button>
        </div>
      </header>
      <div className="dataset-layout">
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
                  onClick={() => openDataset(d.id)}
                >
                  <strong>{d.name}</strong>
                  <span className="muted">
                    {d.rows.toLocaleString('en-US')} rows · {d.shape}
                    {d.audited > 0 ? ` · ${d.failed} failed · ${d.changed} changed` : ''}
                    {d.errors > 0 ? ` · ${d.errors} skipped` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {dataset ? (
          <div className="dataset-view">
            <RunPanel datasetId={dataset.id} />
            <Toolbar datasetId={dataset.id} />
            <div className={`grid-and-review${detailIndex !== null ? ' with-review' : ''}`}>
              <Grid />
              {detailIndex !== null && <ReviewPanel datasetId={dataset.id} index={detailIndex} />}
            </div>
            <ExportPanel dataset={dataset} />
          </div>
        ) : (
          <div className="empty">Choose a dataset, or drop a file to import one.</div>
        )}
      </div>
      <ImportDialog />
    </section>
  );
}
