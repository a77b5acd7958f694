import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { DatasetSummary } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { count } from '../../format.ts';

type ImportErrorRow = { row: number; message: string };

/** The rows an import skipped, each with its row number in the file and the reason. */
export function ImportReport({
  dataset,
  onClose,
}: {
  dataset: DatasetSummary;
  onClose: () => void;
}) {
  const [errors, setErrors] = useState<ImportErrorRow[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    api
      .importErrors({ dataset_id: dataset.id })
      .then(setErrors, (e: unknown) => setError(e as AppError));
  }, [dataset.id]);
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-label="Import report"
        data-testid="import-report"
        onClick={(e) => e.stopPropagation()}
      >
        <h2>
          {count(dataset.errors, 'row')} of {dataset.file_name} skipped
        </h2>
        <p className="muted">
          These rows could not be read or did not fit the {dataset.shape} shape; the other{' '}
          {dataset.rows.toLocaleString('en-US')} were imported. Skipped rows are not part of the
          dataset, so an export does not hold them. Row numbers count the file’s rows from 1 (lines
          for JSONL, records for CSV and Parquet, elements for a JSON array).
        </p>
        {error && <ErrorBanner error={error} />}
        {errors && (
          <div className="report-scroll">
            <table className="table compact">
              <thead>
                <tr>
                  <th>Row</th>
                  <th>Why it was skipped</th>
                </tr>
              </thead>
              <tbody>
                {errors.map((e) => (
                  <tr key={`${e.row}:${e.message}`}>
                    <td>{e.row}</td>
                    <td className="error-text">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
