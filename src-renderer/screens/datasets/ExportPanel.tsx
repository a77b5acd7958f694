import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type {
  DatasetSummary,
  ExportColumns,
  ExportResult,
} from '../../../src-shared/owner/datasets.ts';
import { api, chooseSavePath } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { fileSize } from '../../format.ts';
import { KeptRows } from './KeptRows.tsx';
import {
  exportExtensionOf,
  formatLabelOf,
  FORMAT_LABELS,
  type FileFormat,
} from '../../../src-shared/file-formats.ts';

/** Formats with one set of columns for every row: a key only some rows hold is added to the rest. */
const COLUMNAR: Partial<Record<FileFormat, string>> = { csv: 'CSV', parquet: 'Parquet' };

/**
 * What a CSV or Parquet export adds: the keys only some rows hold, filled in
 * on the others (CSV empty, Parquet null), said before the export writes.
 * JSON and JSON Lines keep each row's own keys: nothing is said.
 */
function AddedColumns({ dataset, format }: { dataset: DatasetSummary; format: FileFormat }) {
  const [columns, setColumns] = useState<ExportColumns | null>(null);
  const columnar = COLUMNAR[format];
  useEffect(() => {
    if (!columnar) return;
    let live = true;
    api.exportColumns({ dataset_id: dataset.id }).then(
      (next) => live && setColumns(next),
      () => live && setColumns(null),
    );
    return () => {
      live = false;
    };
  }, [columnar, dataset.id, dataset.dropped, dataset.rows]);
  if (!columnar || !columns || columns.added.length === 0) return null;
  return (
    <span className="muted export-added" data-testid="export-added-columns">
      {columnar} has one set of columns: adds{' '}
      {columns.added.map((added, i) => (
        <span key={added.column}>
          {i > 0 ? ', ' : ''}
          <code>{added.column}</code> (in {added.rows.toLocaleString('en-US')} of{' '}
          {columns.rows.toLocaleString('en-US')} rows)
        </span>
      ))}{' '}
      to the other rows, {format === 'csv' ? 'empty' : 'null'}. JSON and JSONL add none.
    </span>
  );
}

const FORMATS: readonly FileFormat[] = ['jsonl', 'csv', 'parquet', 'json'];

/** Export in the original schema with accepted fixes applied; optionally with verdicts, without flagged rows. */
export function ExportPanel({ dataset }: { dataset: DatasetSummary }) {
  const [format, setFormat] = useState<FileFormat>(dataset.format);
  const [includeVerdicts, setIncludeVerdicts] = useState(false);
  const [dropFlagged, setDropFlagged] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [kept, setKept] = useState<Pick<ExportResult, 'kept' | 'kept_rows'> | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const fileName = `${dataset.name}.clean.${exportExtensionOf(format, dataset.file_name)}`;

  const run = async () => {
    setError(null);
    setKept(null);
    try {
      const path = await chooseSavePath(fileName);
      if (path === null) return; // cancelled in Electron's dialog
      const exported = await api.exportDataset({
        dataset_id: dataset.id,
        format,
        include_verdicts: includeVerdicts,
        drop_flagged: dropFlagged,
        // Electron's save dialog has asked before replacing a file: the export may replace it.
        ...(path ? { path, overwrite: true } : {}),
      });
      if (exported.download_url) {
        const link = document.createElement('a');
        link.href = exported.download_url;
        link.download = fileName;
        document.body.append(link);
        link.click();
        link.remove();
      }
      // Named by its format: the line stays while another format is picked, and "63 rows, 13 KiB"
      // beside "CSV" read as the CSV's size when it was the JSON Lines export's.
      // Rows the import skipped were never the dataset's: the file lacks them, and says so here
      // too, where a person checks the export against the source.
      const skipped =
        dataset.errors > 0
          ? `; ${dataset.errors.toLocaleString('en-US')} source ${dataset.errors === 1 ? 'row was' : 'rows were'} skipped at import and ${dataset.errors === 1 ? 'is' : 'are'} not in it`
          : '';
      setResult(
        `${formatLabelOf(format, dataset.file_name)} exported: ${exported.rows.toLocaleString('en-US')} rows, ${fileSize(exported.bytes)}${exported.path ? ` to ${exported.path}` : ''}${skipped}`,
      );
      setKept(exported);
    } catch (e) {
      setError(e as AppError);
    }
  };

  return (
    <div className="export-panel" aria-label="Export">
      <select
        aria-label="Export format"
        value={format}
        onChange={(e) => setFormat(e.target.value as FileFormat)}
      >
        {FORMATS.map((value) => (
          <option key={value} value={value}>
            {FORMAT_LABELS[value]}
          </option>
        ))}
      </select>
      <label className="chip">
        <input
          type="checkbox"
          checked={includeVerdicts}
          onChange={(e) => setIncludeVerdicts(e.target.checked)}
        />{' '}
        verdict columns
      </label>
      <label className="chip">
        <input
          type="checkbox"
          checked={dropFlagged}
          onChange={(e) => setDropFlagged(e.target.checked)}
        />{' '}
        drop rows whose fix is flagged
      </label>
      <button type="button" className="button" onClick={() => void run()}>
        Export
      </button>
      <AddedColumns dataset={dataset} format={format} />
      {result && (
        <span className="muted" data-testid="export-result">
          {result}
        </span>
      )}
      {kept && <KeptRows result={kept} />}
      {error && <ErrorBanner error={error} />}
    </div>
  );
}
