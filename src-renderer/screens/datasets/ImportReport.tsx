import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { DatasetSummary } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { count } from '../../format.ts';

type ImportErrorRow = { row: number; message: string };

/**
 * What an import could not take as it was: the bytes that are not UTF-8 (the
 * first line holding some), and the rows it skipped, each with its row
 * number in the file and the reason.
 */
export function ImportReport({
  dataset,
  onClose,
}: {
  dataset: DatasetSummary;
  onClose: () => void;
}) {
  const [errors, setErrors] = useState<ImportErrorRow[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const skipped = dataset.errors > 0;
  useEffect(() => {
    if (!skipped) return;
    api
      .importErrors({ dataset_id: dataset.id })
      .then(setErrors, (e: unknown) => setError(e as AppError));
  }, [dataset.id, skipped]);
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
          {skipped
            ? `${count(dataset.errors, 'row')} of ${dataset.file_name} skipped`
            : `How ${dataset.file_name} was read`}
        </h2>
        {dataset.not_utf8_line !== null && (
          <p className="banner warn-banner" data-testid="not-utf8">
            {/* One flex item: the banner lays its children out as a column. */}
            <span>
              Line {dataset.not_utf8_line.toLocaleString('en-US')} of {dataset.file_name} (and maybe
              later lines) holds bytes that are not UTF-8, as Windows-1252 or Latin-1 text does:
              each was read as U+FFFD (�), and an export writes that in its place. To keep those
              characters, convert the file to UTF-8 (for instance{' '}
              <code>iconv -f WINDOWS-1252 -t UTF-8</code>) and import it again.
            </span>
          </p>
        )}
        {skipped && (
          <p className="muted">
            These rows could not be read or did not fit the {dataset.shape} shape; the other{' '}
            {dataset.rows.toLocaleString('en-US')} were imported. Skipped rows are not part of the
            dataset, so an export does not hold them. Row numbers count the file’s rows from 1
            (lines for JSONL, records for CSV and Parquet, elements for a JSON array).
          </p>
        )}
        {error && <ErrorBanner error={error} />}
        {skipped && errors && (
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
