import { useEffect, useState } from 'react';
import { CONTAMINATION_CHECK } from '../../../../src-shared/checks.ts';
import type { AppError } from '../../../../src-shared/errors.ts';
import type { RowDetail } from '../../../../src-shared/owner/datasets.ts';
import type { AuditBlock, Issue } from '../../../../src-shared/schemas/blocks.ts';
import { api } from '../../../api/client.ts';
import { ErrorBanner } from '../../../components/ErrorBanner.tsx';
import { useGrid } from '../../../state/grid.ts';
import { issuePlace } from '../review/issue-place.ts';
import { issueMarks, segments } from '../review/marks.ts';
import { benchmarkTitle, itemTitle, shippedBenchmark } from './benchmarks.ts';
import { textAt, textsOf } from './sample-text.ts';

/**
 * A row's contamination, item by item: which benchmark item (or which row
 * of an evaluation set) it holds and how much of it, the field that holds
 * it with the shared characters highlighted, and beside it the item: an
 * evaluation set's row, read from its dataset; a public benchmark's identity
 * only, as its texts are not shipped (only their fingerprints).
 */
export function ContaminationEvidence({
  audit,
  sample,
}: {
  audit: AuditBlock | null;
  sample: Record<string, unknown>;
}) {
  const benchmark = useGrid((s) => s.filter.benchmark);
  const issues = (audit?.checks[CONTAMINATION_CHECK]?.issues ?? []).filter(
    (issue) => issue.benchmark !== undefined,
  );
  if (issues.length === 0) {
    // Shown from a benchmark's bar, yet no overlap in its verdict: a row never audited carries
    // the scan's verdict only when it fails, and this one only warns.
    if (audit !== null || benchmark === undefined || benchmark === '') return null;
    return (
      <p className="banner" role="status" data-testid="evidence-unaudited">
        This row overlaps {benchmarkTitle(benchmark)} and only warns: a row not audited yet shows
        the scan&apos;s warnings once audited. Run an audit to see which item it holds.
      </p>
    );
  }
  return (
    <section className="contamination-evidence" aria-label="Contamination" data-testid="evidence">
      {issues.map((issue, i) => (
        <OverlapView key={i} issue={issue} sample={sample} />
      ))}
    </section>
  );
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

function OverlapView({ issue, sample }: { issue: Issue; sample: Record<string, unknown> }) {
  const benchmark = issue.benchmark ?? '';
  const item = issue.benchmark_item ?? 0;
  const place = issuePlace(issue.path);
  const text = issue.path === undefined ? null : textAt(sample, issue.path);
  const shipped = shippedBenchmark(benchmark);
  const head = (
    <>
      <strong>{itemTitle(benchmark, item)}</strong>,{' '}
      {issue.similarity === undefined ? 'part' : percent(issue.similarity)} of its n-grams
      {place !== null ? ` (most of them in the ${place})` : ''}
      {issue.severity === 'warning' ? ': it warns' : ': the row holds it'}
    </>
  );
  const sides = (
    <div className="overlap-sides">
      <figure>
        <figcaption>This row{place !== null ? `, ${place}` : ''}</figcaption>
        {text === null ? (
          <p className="muted">The shared text spans the row’s fields.</p>
        ) : (
          <SpanText text={text} issue={issue} />
        )}
      </figure>
      <figure>
        <figcaption>
          {itemTitle(benchmark, item)}
          {shipped ? '' : ', an evaluation set in the app'}
        </figcaption>
        {shipped ? (
          // The source and its license fold away: nine lines at 1280 px, they pushed the row's
          // own sample out of the review's sight.
          <div className="muted benchmark-identity" data-testid="benchmark-identity">
            Item {item} (0-based line) of {shipped.title}, {shipped.items} items. Its text is not in
            the app, only its fingerprints.
            <details className="benchmark-source">
              <summary>their source and license</summary>
              {shipped.source}; {shipped.license}.
            </details>
          </div>
        ) : (
          <EvalRow name={benchmark} index={item} />
        )}
      </figure>
    </div>
  );
  // A warning (the dataset is the benchmark itself, so every row holds an item) folds to its
  // head: open, its card stood above every row's sample and pushed the fix out of sight.
  if (issue.severity === 'warning') {
    return (
      <details className="overlap warning">
        <summary className="overlap-head" data-testid="overlap-head">
          {head}
        </summary>
        {sides}
      </details>
    );
  }
  return (
    <div className="overlap error">
      <p className="overlap-head" data-testid="overlap-head">
        {head}
      </p>
      {sides}
    </div>
  );
}

/** The field's text with the issue's span marked. */
function SpanText({ text, issue }: { text: string; issue: Issue }) {
  const marks = issueMarks([issue], issue.path ?? '', text.length);
  return (
    <pre className="cell-text">
      {segments(text, marks).map((segment, i) =>
        segment.classes.length === 0 ? (
          <span key={i}>{segment.text}</span>
        ) : (
          <mark key={i} className="issue-span" data-testid="shared-span">
            {segment.text}
          </mark>
        ),
      )}
    </pre>
  );
}

/** The evaluation set's row a `split_overlap` names, read from its dataset in the app. */
function EvalRow({ name, index }: { name: string; index: number }) {
  const datasets = useGrid((s) => s.datasets);
  const dataset = datasets.find((d) => d.name === name);
  const [row, setRow] = useState<RowDetail | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    if (!dataset) return;
    let live = true;
    api.datasetRow({ dataset_id: dataset.id, index }).then(
      (detail) => live && setRow(detail),
      (e: unknown) => live && setError(e as AppError),
    );
    return () => {
      live = false;
    };
  }, [dataset, index]);
  if (!dataset) {
    return <p className="muted">The dataset “{name}” is no longer in the app.</p>;
  }
  if (error) return <ErrorBanner error={error} />;
  if (!row) return <p className="muted">Reading it…</p>;
  return (
    <div className="eval-row" data-testid="eval-row">
      {textsOf(row.sample).map(({ path, text }) => (
        <div key={path}>
          <span className="muted small">{issuePlace(path) ?? path}</span>
          <pre className="cell-text">{text}</pre>
        </div>
      ))}
    </div>
  );
}
