import { useEffect, useState } from 'react';
import { DUPLICATES_CHECK } from '../../../../src-shared/checks.ts';
import type { AppError } from '../../../../src-shared/errors.ts';
import type { RowDetail } from '../../../../src-shared/owner/datasets.ts';
import type { Issue } from '../../../../src-shared/schemas/blocks.ts';
import { api } from '../../../api/client.ts';
import { ErrorBanner } from '../../../components/ErrorBanner.tsx';
import { SampleDiff } from './SampleDiff.tsx';

/**
 * A row the scan found to repeat another: the two side by side, the words
 * they do not share marked, and the two answers a reviewer has: drop this
 * copy (the main one), or keep both, which the next scans remember.
 */

/** The issue saying which row this one repeats, if the row is a copy. */
export function copyIssue(detail: RowDetail): (Issue & { ref: number }) | null {
  const issue = detail.audit?.checks[DUPLICATES_CHECK]?.issues.find(
    (i) => (i.code === 'exact_duplicate' || i.code === 'near_duplicate') && i.ref !== undefined,
  );
  return issue ? (issue as Issue & { ref: number }) : null;
}

/** The sample the scan compared: an accepted fix, else the imported one. */
const current = (detail: RowDetail): Record<string, unknown> =>
  detail.decision === 'accepted' && detail.fixed_sample ? detail.fixed_sample : detail.sample;

export function DuplicatePair({
  datasetId,
  detail,
  issue,
  onDrop,
  onKeepBoth,
  onOpen,
}: {
  datasetId: string;
  detail: RowDetail;
  issue: Issue & { ref: number };
  onDrop: () => void;
  onKeepBoth: () => Promise<void>;
  onOpen: (index: number) => void;
}) {
  const [first, setFirst] = useState<RowDetail | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [keeping, setKeeping] = useState(false);
  useEffect(() => {
    let live = true;
    api
      .datasetRow({ dataset_id: datasetId, index: issue.ref })
      .then((row) => live && setFirst(row))
      .catch((e: unknown) => live && setError(e as AppError));
    return () => {
      live = false;
    };
  }, [datasetId, issue.ref]);
  const exact = issue.code === 'exact_duplicate';
  const similarity = Math.round((issue.similarity ?? 1) * 100);
  return (
    <section className="duplicate-pair" aria-label="Duplicate" data-testid="duplicate-pair">
      <div className="duplicate-bar">
        <p>
          <b>{exact ? 'An exact copy' : `A near copy (${similarity}% shared)`}</b> of{' '}
          <button type="button" className="link-button" onClick={() => onOpen(issue.ref)}>
            row {first?.source_row ?? issue.ref + 1}
          </button>
          {exact ? ', once case, spaces and punctuation are set aside.' : '.'}
        </p>
        <button type="button" className="button primary small" title="d" onClick={onDrop}>
          Drop this copy
        </button>
        <button
          type="button"
          className="button small"
          disabled={keeping}
          onClick={() => {
            setKeeping(true);
            void onKeepBoth().finally(() => setKeeping(false));
          }}
        >
          Keep both (not a duplicate)
        </button>
      </div>
      {error && <ErrorBanner error={error} />}
      {first && (
        <SampleDiff
          before={current(first)}
          after={current(detail)}
          beforeIssues={[]}
          afterIssues={[]}
          headers={[`Row ${first.source_row} (kept)`, `Row ${detail.source_row} (this copy)`]}
        />
      )}
    </section>
  );
}
