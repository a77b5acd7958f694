import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import { choiceLetter } from '../../../src-shared/letters.ts';
import type { DatasetSummary } from '../../../src-shared/owner/datasets.ts';
import type { DatasetOverview } from '../../../src-shared/owner/overview.ts';
import type { DuplicateGroup, Tally } from '../../../src-shared/schemas/report.ts';
import { api } from '../../api/client.ts';
import { Columns, Histogram, TallyBars } from '../../components/charts.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { count, toMinute } from '../../format.ts';
import { useGrid } from '../../state/grid.ts';
import { ContaminationCard } from './contamination/ContaminationCard.tsx';
import { NOT_VERIFIABLE } from './review/undecided.ts';

/** Languages listed by name; the rest are summed on one line. */
const LANGUAGES_SHOWN = 6;

const barsOf = (tallies: Record<string, Tally>) =>
  Object.entries(tallies).map(([name, t]) => ({ name, ...t }));

/**
 * A dataset at a glance: what stands out (findings), failures and warnings per
 * check and per issue code (a click on a bar shows those rows), where the
 * labelled answers sit, field lengths, languages, and the duplicate groups
 * with "keep the first, drop the others".
 */
export function Overview({ dataset }: { dataset: DatasetSummary }) {
  const scanGeneration = useGrid((s) => s.scanGeneration);
  const showRows = useGrid((s) => s.showRows);
  const [overview, setOverview] = useState<DatasetOverview | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    let live = true;
    api.datasetOverview({ dataset_id: dataset.id }).then(
      (next) => live && setOverview(next),
      (e: unknown) => live && setError(e as AppError),
    );
    return () => {
      live = false;
    };
  }, [
    dataset.id,
    scanGeneration,
    dataset.rows,
    dataset.audited,
    dataset.accepted,
    dataset.dropped,
  ]);

  if (error) return <ErrorBanner error={error} />;
  if (!overview) return <p className="muted">Reading the overview…</p>;
  const stats = overview.scan?.statistics;
  const position = stats?.answer_position;
  const lengthFields = Object.entries(stats?.lengths ?? {});
  // No scan yet and nothing audited: no check has run, which is not "nothing failed". Scanned
  // but not audited: rows count only the dataset checks' failures (a warning alone would mark a
  // row audited and passing), so "nothing warned" beside the contamination card's warnings read
  // as a contradiction.
  const unchecked =
    dataset.audited > 0
      ? undefined
      : overview.scan
        ? 'No dataset check failed. No row is audited yet: an audit adds every other check, and the warnings.'
        : overview.scanning
          ? 'Not checked yet: the dataset checks are running.'
          : 'Not checked yet: the dataset checks have not run.';
  const languages = stats?.languages.detected ?? [];
  const otherLanguages = languages.slice(LANGUAGES_SHOWN);
  return (
    <div className="overview" data-testid="overview">
      <p className="muted overview-head">
        {count(overview.rows, 'row')}
        {overview.scan
          ? ` · dataset checks of ${toMinute(overview.scan.scanned_at)}, near duplicates at ${Math.round(overview.scan.threshold * 100)}% similar`
          : ' · not scanned yet'}
        {overview.scanning && <span className="badge info">scanning…</span>}
      </p>
      {overview.findings.length > 0 && (
        <ul className="findings" aria-label="Findings" data-testid="findings">
          {overview.findings.map((finding, i) => (
            <li key={i} className={`finding ${finding.code}`}>
              {finding.message}
            </li>
          ))}
        </ul>
      )}
      <div className="overview-cards">
        <ContaminationCard findings={overview.findings} />
        <section className="card" aria-labelledby="ov-checks">
          <h3 id="ov-checks">Checks</h3>
          <TallyBars
            label="Failures and warnings per check"
            empty={unchecked}
            bars={barsOf(overview.checks)}
            total={overview.rows}
            onFailed={(check) => showRows({ failed_check: check })}
            onWarned={(check) => showRows({ warned_check: check })}
          />
          <Legend />
          <UndecidedRows dataset={dataset} />
        </section>
        <section className="card" aria-labelledby="ov-issues">
          <h3 id="ov-issues">Issue codes</h3>
          <TallyBars
            label="Failures and warnings per issue code"
            empty={unchecked}
            bars={barsOf(overview.issues)}
            total={overview.rows}
            onFailed={(code) => showRows({ issue_code: code, severity: 'error' })}
            onWarned={(code) => showRows({ issue_code: code, severity: 'warning' })}
          />
          <Legend />
        </section>
        {position && (
          <section className="card" aria-labelledby="ov-position">
            <h3 id="ov-position">Position of the labelled answer</h3>
            <Columns
              label="Items labelled at each position"
              values
              columns={position.counts.map((value, i) => ({
                label: choiceLetter(i),
                value,
                expected: position.expected[i] ?? 0,
                title: `${choiceLetter(i)}: ${value} of ${position.items} (about ${Math.round(position.expected[i] ?? 0)} if uniform)`,
              }))}
            />
            <p className="muted">
              Bars: items whose right answer is at each option; ticks: what uniform positions would
              give (chi-square {position.chi_square}).
            </p>
          </section>
        )}
        {stats && (
          <section className="card" aria-labelledby="ov-languages">
            <h3 id="ov-languages">Languages</h3>
            <ul className="plain-list">
              {languages.slice(0, LANGUAGES_SHOWN).map((l) => (
                <li key={l.language}>
                  <code>{l.language === 'und' ? 'undetermined' : l.language}</code>{' '}
                  {count(l.count, 'row')}
                </li>
              ))}
              {otherLanguages.length > 0 && (
                <li title={otherLanguages.map((l) => `${l.language}: ${l.count}`).join(', ')}>
                  {count(otherLanguages.length, 'other language')}:{' '}
                  {count(
                    otherLanguages.reduce((sum, l) => sum + l.count, 0),
                    'row',
                  )}
                </li>
              )}
            </ul>
            <p className="muted">
              {stats.languages.sampled < stats.samples
                ? `Of a sample of ${count(stats.languages.sampled, 'row')}.`
                : 'Of every row.'}
            </p>
          </section>
        )}
        {lengthFields.length > 0 && (
          <section className="card wide" aria-labelledby="ov-lengths">
            <h3 id="ov-lengths">Lengths</h3>
            <div className="histograms">
              {lengthFields.slice(0, 6).map(([field, s]) => (
                <figure key={field}>
                  <Histogram
                    label={`${field} length`}
                    bins={s.histogram}
                    unit={field === 'turns per conversation' ? 'turns' : 'characters'}
                  />
                  <figcaption>
                    {/* p90 is a length of the data that 90% do not exceed: "at most", not "under". */}
                    <b>{field}</b> median {s.p50}, 90% at most {s.p90}, max {s.max}
                  </figcaption>
                </figure>
              ))}
            </div>
          </section>
        )}
        {/* Keyed by the scan: groups paged in before a rescan are not mixed with the new ones. */}
        <DuplicateGroups
          key={overview.scan?.scanned_at ?? 'none'}
          dataset={dataset}
          overview={overview}
        />
      </div>
    </div>
  );
}

/**
 * The rows no check failed but whose label nobody could verify (label_correct
 * or answer_correct undecided): neither passed nor failed, so counted apart
 * from both, in the undecided colour; a click shows them.
 */
function UndecidedRows({ dataset }: { dataset: DatasetSummary }) {
  const showRows = useGrid((s) => s.showRows);
  const [undecided, setUndecided] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    api
      .datasetRows({ dataset_id: dataset.id, offset: 0, limit: 1, filter: { unverified: true } })
      .then(
        (page) => live && setUndecided(page.total),
        () => live && setUndecided(null),
      );
    return () => {
      live = false;
    };
  }, [dataset.id, dataset.audited, dataset.accepted]);
  if (!undecided) return null;
  return (
    <p className="undecided-rows" data-testid="undecided-rows">
      <span className="swatch undecided" />{' '}
      <button type="button" className="link-button" onClick={() => showRows({ unverified: true })}>
        {count(undecided, 'row')} undecided
      </button>
      : a label or an answer nobody could verify (label_correct or answer_correct), neither passed
      nor failed: <span title={NOT_VERIFIABLE.long}>{NOT_VERIFIABLE.short}</span>, not a fault of
      the rows
    </p>
  );
}

function Legend() {
  return (
    <p className="muted legend">
      <span className="swatch failed" /> failed <span className="swatch warned" /> warned only ·
      click a name or a bar for its rows
    </p>
  );
}

/** The duplicate groups: members (a click opens the review), and keep the first, drop the others. */
function DuplicateGroups({
  dataset,
  overview,
}: {
  dataset: DatasetSummary;
  overview: DatasetOverview;
}) {
  const showRows = useGrid((s) => s.showRows);
  const refresh = useGrid((s) => s.refresh);
  // Groups paged in beyond the overview's first ones.
  const [more, setMore] = useState<DuplicateGroup[]>([]);
  const groups = [...overview.duplicate_groups.groups, ...more];
  const [error, setError] = useState<AppError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Groups whose copies were just dropped, by first row ('all': every group): shown resolved at
  // once, not left with their buttons until the rescan takes them away.
  const [resolved, setResolved] = useState<ReadonlySet<number> | 'all'>(new Set<number>());
  const isResolved = (group: DuplicateGroup): boolean =>
    resolved === 'all' || resolved.has(group.rows[0] as number);
  const total = overview.duplicate_groups.total;
  const open = total - groups.filter(isResolved).length;
  const drop = async (group: DuplicateGroup | null) => {
    setError(null);
    try {
      const { updated } = await api.decide({
        dataset_id: dataset.id,
        ...(group ? { indices: group.rows.slice(1) } : { filter: { repeats: true } }),
        decision: 'dropped',
      });
      setResolved((was) =>
        group === null || was === 'all' ? 'all' : new Set([...was, group.rows[0] as number]),
      );
      setDone(`${count(updated, 'row')} dropped.`);
      refresh();
    } catch (e) {
      setError(e as AppError);
    }
  };
  const loadMore = async () => {
    const page = await api.duplicateGroups({
      dataset_id: dataset.id,
      offset: groups.length,
      limit: 50,
    });
    setMore([...more, ...page.groups]);
  };
  return (
    <section className="card wide" aria-labelledby="ov-dupes" data-testid="duplicate-groups">
      <h3 id="ov-dupes">
        Duplicate groups <span className="muted">({total})</span>
      </h3>
      {total === 0 ? (
        // Before the dataset checks' first scan ends, no group is known yet: not "none".
        <p className="muted">
          {overview.scan
            ? 'No row repeats another.'
            : 'Looking for repeats: the dataset checks are still scanning…'}
        </p>
      ) : (
        <>
          <div className="dupes-actions">
            {open > 0 && (
              <ConfirmButton
                label="Keep the first of each group, drop the others"
                confirmLabel="Drop"
                question={`Drop ${count(
                  groups.reduce((n, g) => n + g.rows.length - 1, 0),
                  'row',
                )}${total > groups.length ? ' and the copies in the groups not shown' : ''}? The export leaves dropped rows out; each can be restored.`}
                onConfirm={() => drop(null)}
              />
            )}
            {done && (
              <span className="muted" role="status">
                {done}
              </span>
            )}
          </div>
          {error && <ErrorBanner error={error} />}
          <ul className="dupe-groups">
            {groups.map((group) => (
              <li
                key={group.rows[0]}
                className={isResolved(group) ? 'resolved' : undefined}
                data-testid="duplicate-group"
              >
                <span className={`badge ${group.kind === 'exact' ? 'bad' : 'warn'}`}>
                  {group.kind === 'exact'
                    ? 'exact'
                    : `near, ${Math.round(group.similarity * 100)}%`}
                </span>
                {group.label_conflict && <span className="badge bad">labels differ</span>}{' '}
                {group.rows.map((row, i) => (
                  <button
                    key={row}
                    type="button"
                    className="link-button"
                    title={i === 0 ? 'the first occurrence (kept)' : 'a repeat'}
                    onClick={() => showRows({}, row)}
                  >
                    row {group.source_rows?.[i] ?? row + 1}
                    {i === 0 ? ' (first)' : ''}
                  </button>
                ))}
                {isResolved(group) ? (
                  <span className="badge ok">resolved: the first kept, the others dropped</span>
                ) : (
                  <button type="button" className="button small" onClick={() => void drop(group)}>
                    Keep the first, drop the others
                  </button>
                )}
              </li>
            ))}
          </ul>
          {groups.length < total && (
            <button type="button" className="button small" onClick={() => void loadMore()}>
              More groups ({total - groups.length} not shown)
            </button>
          )}
        </>
      )}
    </section>
  );
}
