import { useEffect, useRef, useState } from 'react';
import { useGrid } from '../state/grid.ts';
import { useImport } from '../state/imports.ts';
import { DatasetList, DeleteDataset } from './datasets/DatasetList.tsx';
import { ExportPanel } from './datasets/ExportPanel.tsx';
import { Grid } from './datasets/Grid.tsx';
import { ImportDialog } from './datasets/ImportDialog.tsx';
import { ImportReport } from './datasets/ImportReport.tsx';
import { Overview } from './datasets/Overview.tsx';
import { ReviewPanel } from './datasets/ReviewPanel.tsx';
import { RunPanel } from './datasets/RunPanel.tsx';
import { Toolbar } from './datasets/Toolbar.tsx';
import { count } from '../format.ts';
import { describeMapping } from './datasets/describe-mapping.ts';

/** Datasets: the list, the import, and the open dataset's grid with its runs, review and export. */
export function DatasetsScreen() {
  const { datasets, datasetId, loadDatasets, detailIndex, view, setView } = useGrid();
  const begin = useImport((s) => s.begin);
  const picker = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState(false);
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
      {/* While a row is under review, the grid and the review take the list's room. */}
      <div
        className={`dataset-layout${detailIndex !== null && view === 'rows' ? ' reviewing' : ''}`}
      >
        <DatasetList datasets={datasets} />
        {dataset ? (
          // Keyed by the dataset: a run's settings, an estimate or an export format never leak
          // from one dataset to the next.
          <div className="dataset-view" key={dataset.id}>
            <div className="dataset-title">
              <h2>{dataset.name}</h2>
              <span className="muted">
                {dataset.file_name} · {dataset.format.toUpperCase()} · {dataset.shape}
                {dataset.paths === 'all' && ' · a row per path of each tree'}
              </span>
              {dataset.mapping && (
                <span className="muted dataset-mapping" data-testid="dataset-mapping">
                  {describeMapping(dataset.mapping)}
                </span>
              )}
              {dataset.errors > 0 && (
                <button
                  type="button"
                  className="button small warn"
                  data-testid="skipped-rows"
                  onClick={() => setReport(true)}
                >
                  {count(dataset.errors, 'row')} skipped at import
                </button>
              )}
              <span className="spacer" />
              <DeleteDataset dataset={dataset} />
            </div>
            <RunPanel datasetId={dataset.id} />
            <div className="view-tabs" role="tablist" aria-label="View">
              {(['rows', 'overview'] as const).map((tab) => (
                <button
                  key={tab}
                  type="button"
                  role="tab"
                  aria-selected={view === tab}
                  className={`tab${view === tab ? ' active' : ''}`}
                  onClick={() => setView(tab)}
                >
                  {tab === 'rows' ? 'Rows' : 'Overview'}
                </button>
              ))}
            </div>
            {view === 'overview' ? (
              <Overview dataset={dataset} />
            ) : (
              <>
                <Toolbar dataset={dataset} />
                <div className={`grid-and-review${detailIndex !== null ? ' with-review' : ''}`}>
                  <Grid
                    hideDetail={dataset.task_types.every((type) => type === 'text')}
                    narrow={detailIndex !== null}
                  />
                  {detailIndex !== null && (
                    <ReviewPanel datasetId={dataset.id} index={detailIndex} />
                  )}
                </div>
              </>
            )}
            <ExportPanel dataset={dataset} />
            {report && <ImportReport dataset={dataset} onClose={() => setReport(false)} />}
          </div>
        ) : (
          <div className="empty">Choose a dataset, or drop a file to import one.</div>
        )}
      </div>
      <ImportDialog />
    </section>
  );
}
