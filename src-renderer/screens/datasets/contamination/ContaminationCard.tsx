import type { DatasetFinding } from '../../../../src-shared/schemas/report.ts';
import { count } from '../../../format.ts';
import { useGrid } from '../../../state/grid.ts';
import { benchmarkTitle, shippedBenchmark } from './benchmarks.ts';
import { contaminationFindings } from './findings.ts';

/**
 * The Overview's contamination card: a bar per benchmark or evaluation set
 * whose items the scan found in rows (rows, and distinct items), each a
 * filter of the grid to those rows; and, when the dataset is a benchmark
 * itself, that said plainly. Nothing found: nothing shown (the findings
 * list says what was looked for only when something was).
 */
export function ContaminationCard({ findings }: { findings: readonly DatasetFinding[] }) {
  const showRows = useGrid((s) => s.showRows);
  const { contamination, itself } = contaminationFindings(findings);
  if (!contamination && itself.length === 0) return null;
  const sets = contamination?.benchmarks ?? [];
  const max = Math.max(1, ...sets.map((set) => set.rows));
  const isItself = (name: string) => itself.some((finding) => finding.benchmark === name);
  return (
    <section className="card wide" aria-labelledby="ov-contamination" data-testid="contamination">
      <h3 id="ov-contamination">
        Benchmark contamination{' '}
        {contamination && (
          <span className="muted">
            ({count(contamination.rows, 'row')} {contamination.rows === 1 ? 'holds' : 'hold'}{' '}
            evaluation items)
          </span>
        )}
      </h3>
      {itself.map((finding) => (
        <p key={finding.benchmark} className="banner warn-banner" data-testid="benchmark-dataset">
          This dataset is {benchmarkTitle(finding.benchmark)} itself: {count(finding.rows, 'row')}{' '}
          are its items. They warn instead of failing, so the rest of the audit stays readable.
        </p>
      ))}
      <ul className="contamination-bars" aria-label="Rows holding items of each benchmark">
        {sets.map((set) => {
          const title = benchmarkTitle(set.benchmark);
          const label = `${title}: ${count(set.rows, 'row')}, ${count(set.items, 'distinct item')}`;
          const shipped = shippedBenchmark(set.benchmark);
          return (
            <li key={set.benchmark}>
              <button
                type="button"
                className="contamination-bar"
                aria-label={label}
                title={
                  shipped
                    ? `${shipped.title} (${shipped.items} items; ${shipped.source}; ${shipped.license}): show the rows`
                    : `Rows of the dataset “${set.benchmark}”, marked as an evaluation set: show the rows`
                }
                onClick={() => showRows({ benchmark: set.benchmark })}
              >
                <span className="contamination-name">
                  <span className="contamination-title">{title}</span>
                  {set.kind === 'evaluation_set' && <span className="badge info">eval set</span>}
                </span>
                <span className="tally-track">
                  <span
                    className={`tally-segment ${isItself(set.benchmark) ? 'warned' : 'failed'}`}
                    style={{ width: `${(set.rows / max) * 100}%` }}
                  />
                </span>
                <span className="contamination-count">
                  {count(set.rows, 'row')} · {count(set.items, 'item')}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <p className="muted">
        Rows holding a test item of a public benchmark (<code>benchmark_overlap</code>) or a row of
        a dataset marked as an evaluation set (<code>split_overlap</code>): most of it fails, part
        of it warns. Click a bar for its rows.
      </p>
    </section>
  );
}
