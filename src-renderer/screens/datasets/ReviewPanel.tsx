import type React from 'react';
import { useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { RowDetail } from '../../../src-shared/owner/datasets.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useGrid } from '../../state/grid.ts';
import { sampleText, WordDiff } from './WordDiff.tsx';

/** One sample under review: original vs fixed, audit vs reaudit, the changes, accept or reject. */
export function ReviewPanel({ datasetId, index }: { datasetId: string; index: number }) {
  const [detail, setDetail] = useState<RowDetail | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const refresh = useGrid((s) => s.refresh);
  const close = useGrid((s) => s.showDetail);
  const generation = useGrid((s) => s.generation);
  const beforePane = useRef<HTMLPreElement>(null);
  const afterPane = useRef<HTMLPreElement>(null);
  const follow = (pane: React.RefObject<HTMLPreElement | null>, top: number) => {
    if (pane.current && Math.abs(pane.current.scrollTop - top) > 1) pane.current.scrollTop = top;
  };

  useEffect(() => {
    let live = true;
    api
      .datasetRow({ dataset_id: datasetId, index })
      .then((row) => live && setDetail(row))
      .catch((e: unknown) => live && setError(e as AppError));
    return () => {
      live = false;
    };
  }, [datasetId, index, generation]);

  if (error) return <ErrorBanner error={error} />;
  if (!detail) return <aside className="review">Loading…</aside>;

  const before = sampleText(detail.sample);
  const after = detail.fixed_sample ? sampleText(detail.fixed_sample) : before;
  const checks = Object.entries(detail.audit?.checks ?? {});
  const decide = async (decision: 'accepted' | 'rejected' | 'dropped' | 'restored' | null) => {
    try {
      await api.decide({ dataset_id: datasetId, indices: [index], decision });
      refresh();
    } catch (e) {
      setError(e as AppError);
    }
  };

  return (
    <aside className="review" aria-label="Review" data-testid="review">
      <header className="review-header">
        <h2>Row {detail.source_row}</h2>
        <span className="muted">{detail.decision ?? 'pending'}</span>
        {detail.dropped ? (
          <button type="button" className="button small" onClick={() => void decide('restored')}>
            Restore
          </button>
        ) : (
          <button type="button" className="button small" onClick={() => void decide('dropped')}>
            Drop
          </button>
        )}
        <button type="button" className="button small" onClick={() => close(null)}>
          Close
        </button>
      </header>
      {detail.dropped && (
        <p className="banner" role="status" data-testid="dropped-banner">
          Dropped: the export leaves this row out. Restore takes it back.
        </p>
      )}
      {detail.fix && detail.fix.changes.length > 0 && (
        <div className="review-actions">
          <button type="button" className="button primary" onClick={() => void decide('accepted')}>
            Accept fix
          </button>
          <button type="button" className="button" onClick={() => void decide('rejected')}>
            Reject
          </button>
          {detail.decision && (
            <button type="button" className="button small" onClick={() => void decide(null)}>
              Undo
            </button>
          )}
        </div>
      )}
      {(detail.fix?.flagged ?? false) && (
        <p className="banner warn-banner" role="status">
          Flagged:{' '}
          {detail.fix?.changes.length
            ? 'a check still fails after the fix; look before accepting.'
            : 'no repair passed the never-worse test; this sample needs a person.'}
        </p>
      )}
      {detail.fixed_sample ? (
        <div className="side-by-side">
          <section>
            <h3>Original</h3>
            <WordDiff
              before={before}
              after={after}
              side="before"
              scrollRef={beforePane}
              onScroll={(top) => follow(afterPane, top)}
            />
          </section>
          <section>
            <h3>Fixed</h3>
            <WordDiff
              before={before}
              after={after}
              side="after"
              scrollRef={afterPane}
              onScroll={(top) => follow(beforePane, top)}
            />
          </section>
        </div>
      ) : (
        <section>
          <h3>{detail.fix ? 'Sample (the fix changed nothing)' : 'Sample'}</h3>
          <WordDiff before={before} after={after} side="after" />
        </section>
      )}
      {checks.length > 0 && (
        <>
          <h3>Verdicts</h3>
          <table className="table compact" data-testid="verdicts">
            <thead>
              <tr>
                <th>Check</th>
                <th>Audit</th>
                <th>Reaudit</th>
                <th>Δ score</th>
              </tr>
            </thead>
            <tbody>
              {checks.map(([name, verdict]) => {
                const again = detail.reaudit?.checks[name];
                const delta = again ? again.score - verdict.score : null;
                return (
                  <tr key={name}>
                    <td>{name}</td>
                    <td>
                      <Verdict passed={verdict.passed} score={verdict.score} />
                      {verdict.issues.map((issue, i) => (
                        <div key={i} className="issue">
                          <code>{issue.code}</code> {issue.message}
                          {issue.ref !== undefined && (
                            <>
                              {' '}
                              <button
                                type="button"
                                className="link-button"
                                onClick={() => close(issue.ref ?? null)}
                              >
                                open it
                              </button>
                            </>
                          )}
                        </div>
                      ))}
                    </td>
                    <td>{again ? <Verdict passed={again.passed} score={again.score} /> : '—'}</td>
                    <td className={delta !== null && delta > 0 ? 'delta-up' : ''}>
                      {delta === null ? '—' : `${delta >= 0 ? '+' : ''}${delta.toFixed(2)}`}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      {detail.fix && detail.fix.changes.length > 0 && (
        <>
          <h3>Changes</h3>
          <ol className="changes" data-testid="changes">
            {detail.fix.changes.map((change, i) => (
              <li key={i}>
                <code>{change.op}</code> <code>{change.path}</code>{' '}
                <span className="muted">({change.reason})</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}

function Verdict({ passed, score }: { passed: boolean | null; score: number }) {
  const label = passed === null ? 'undecided' : passed ? 'pass' : 'fail';
  return (
    <span className={`badge ${passed === null ? 'neutral' : passed ? 'ok' : 'bad'}`}>
      {label} {score.toFixed(2)}
    </span>
  );
}
