import { useEffect, useRef, useState } from 'react';
import type { AppError } from '../../src-shared/errors.ts';
import { api } from '../api/client.ts';
import { BreakableName } from '../components/BreakableName.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { useGrid } from '../state/grid.ts';
import { useImport } from '../state/imports.ts';
import { DatasetList, DeleteDataset } from './datasets/DatasetList.tsx';
import { EvalSetToggle } from './datasets/contamination/EvalSetToggle.tsx';
import { ExportPanel } from './datasets/ExportPanel.tsx';
import { Grid } from './datasets/Grid.tsx';
import { ImportDialog } from './datasets/ImportDialog.tsx';
import { ImportReport } from './datasets/ImportReport.tsx';
import { Overview } from './datasets/Overview.tsx';
import { ReviewPanel } from './datasets/ReviewPanel.tsx';
import { RunPanel } from './datasets/RunPanel.tsx';
import { Toolbar } from './datasets/Toolbar.tsx';
import { count } from '../format.ts';
import { describeMapping } from '../../src-shared/describe-mapping.ts';
import { ACCEPTED_EXTENSIONS, formatLabelOf } from '../../src-shared/file-formats.ts';

/** The rows of a dataset still importing, and how far its file has been read. */
function ImportingStrip({ datasetId, rows }: { datasetId: string; rows: number }) {
  const progress = useImport((s) => s.progress);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const fraction = progress?.fraction ?? 0;
  const shown = Math.max(rows, progress?.rows ?? 0);
  // Deleting a dataset that is still importing stops its import and keeps none of its rows.
  const stop = () => {
    setStopping(true);
    void api
      .deleteDataset({ dataset_id: datasetId })
      .then(async () => {
        useGrid.getState().openDataset(null);
        await useGrid.getState().loadDatasets();
      })
      .catch((e: unknown) => {
        setStopping(false);
        setError(e as AppError);
      });
  };
  return (
    <div className="importing" role="status" data-testid="importing">
      <progress max={1} value={fraction} aria-label="Import progress" />
      <span>
        Importing: {count(shown, 'row')} so far
        {progress && progress.errors > 0 ? `, ${count(progress.errors, 'row')} skipped` : ''} (
        {Math.round(fraction * 100)}% of the file). Runs, review and export open when it is done.
      </span>
      <button type="button" className="button small" disabled={stopping} onClick={stop}>
        {stopping ? 'Stopping…' : 'Stop and discard'}
      </button>
      {error && <ErrorBanner error={error} />}
    </div>
  );
}

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
  // A dataset still importing shows its rows as they arrive; the rest waits for the import's end.
  const importing = dataset?.state === 'importing';
  const reviewing = detailIndex !== null && view === 'rows' && !importing;

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
            accept={ACCEPTED_EXTENSIONS}
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
      <div className={`dataset-layout${reviewing ? ' reviewing' : ''}`}>
        <DatasetList datasets={datasets} />
        {dataset ? (
          // Keyed by the dataset: a run's settings, an estimate or an export format never leak
          // from one dataset to the next.
          <div
            className={`dataset-view${view === 'overview' && !importing ? ' overview-view' : ''}${
              reviewing ? ' reviewing' : ''
            }`}
            key={dataset.id}
          >
            <div className="dataset-title">
              <h2>
                <BreakableName text={dataset.name} />
              </h2>
              <span className="muted">
                {dataset.file_name} · {formatLabelOf(dataset.format, dataset.file_name)} ·{' '}
                {dataset.shape}
                {dataset.paths === 'all' && ' · a row per path of each tree'}
              </span>
              {dataset.mapping && (
                <span className="muted dataset-mapping" data-testid="dataset-mapping">
                  {describeMapping(dataset.mapping, 'header')}
                </span>
              )}
              {dataset.errors > 0 && !importing && (
                <button
                  type="button"
                  className="button small warn"
                  data-testid="skipped-rows"
                  onClick={() => setReport(true)}
                >
                  {count(dataset.errors, 'row')} skipped at import
                </button>
              )}
              {dataset.not_utf8_line !== null && !importing && (
                <button
                  type="button"
                  className="button small warn"
                  data-testid="not-utf8-line"
                  title="Bytes that are not UTF-8 were read as U+FFFD (�)"
                  onClick={() => setReport(true)}
                >
                  not UTF-8 from line {dataset.not_utf8_line.toLocaleString('en-US')}
                </button>
              )}
              <span className="spacer" />
              {!importing && (
                <span className="dataset-actions">
                  <EvalSetToggle dataset={dataset} />
                  <DeleteDataset dataset={dataset} />
                </span>
              )}
            </div>
            {importing ? (
              <ImportingStrip datasetId={dataset.id} rows={dataset.rows} />
            ) : (
              <RunPanel datasetId={dataset.id} />
            )}
            {!importing && (
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
            )}
            {view === 'overview' && !importing ? (
              <Overview dataset={dataset} />
            ) : (
              <>
                {!importing && <Toolbar dataset={dataset} />}
                <div className={`grid-and-review${reviewing ? ' with-review' : ''}`}>
                  <Grid
                    hideDetail={dataset.task_types.every((type) => type === 'text')}
                    narrow={reviewing}
                  />
                  {reviewing && <ReviewPanel datasetId={dataset.id} index={detailIndex} />}
                </div>
              </>
            )}
            {!importing && <ExportPanel dataset={dataset} />}
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
