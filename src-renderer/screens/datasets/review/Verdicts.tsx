import type { AuditBlock, Verdict } from '../../../../src-shared/schemas/blocks.ts';
import { issuePlace } from './issue-place.ts';
import { undecidedWhy } from './undecided.ts';

/**
 * The verdicts of a row, audit beside reaudit: the checks that fail or that
 * the fix changed come first, with their issues; the checks left undecided
 * (a label nobody could verify) are folded into a line of their own, in
 * their own colour, and those that passed either way into another; each
 * line opens on a click.
 */
export function Verdicts({
  audit,
  reaudit,
  edited = false,
  onRef,
}: {
  audit: AuditBlock | null;
  reaudit: AuditBlock | null;
  /** The candidate is a person's edit, not the engine's fix: its column says so. */
  edited?: boolean;
  /** Opens the row an issue names (a duplicate's first occurrence). */
  onRef: (index: number) => void;
}) {
  const names = [
    ...new Set([...Object.keys(audit?.checks ?? {}), ...Object.keys(reaudit?.checks ?? {})]),
  ];
  if (names.length === 0) return <p className="muted">Not audited yet.</p>;
  const rows = names.map((name) => {
    const before = audit?.checks[name];
    const after = reaudit?.checks[name];
    const failing = before?.passed === false || after?.passed === false;
    const changed =
      before !== undefined &&
      after !== undefined &&
      (before.passed !== after.passed || before.score !== after.score);
    const warned = [...(before?.issues ?? []), ...(after?.issues ?? [])].length > 0;
    const undecided = before?.passed === null || after?.passed === null;
    return { name, before, after, open: failing || changed || warned, undecided };
  });
  const open = rows.filter((r) => r.open);
  const undecided = rows.filter((r) => !r.open && r.undecided);
  const folded = rows.filter((r) => !r.open && !r.undecided);
  const why = undecidedWhy(undecided.map((r) => r.name));
  const row = ({ name, before, after }: (typeof rows)[number]) => {
    const delta = before && after ? after.score - before.score : null;
    return (
      <tr key={name}>
        <td>{name}</td>
        <td>
          <VerdictCell verdict={before} onRef={onRef} />
        </td>
        {reaudit && (
          <td>
            <VerdictCell verdict={after} onRef={onRef} />
          </td>
        )}
        {reaudit && (
          <td
            className={
              delta !== null && delta > 0
                ? 'delta-up'
                : delta !== null && delta < 0
                  ? 'delta-down'
                  : ''
            }
          >
            {delta === null ? '—' : `${delta >= 0 ? '+' : ''}${delta.toFixed(2)}`}
          </td>
        )}
      </tr>
    );
  };
  // The columns' names head the first table shown: over no rows (every check folded) they
  // would stand alone above the folded lines, an empty table.
  const head = (
    <thead>
      <tr>
        <th>Check</th>
        <th>{reaudit ? 'Audit' : 'Verdict'}</th>
        {reaudit && <th>{edited ? 'After your edit' : 'After the fix'}</th>}
        {reaudit && <th>Δ score</th>}
      </tr>
    </thead>
  );
  return (
    <div className="verdicts" data-testid="verdicts">
      {open.length > 0 && (
        <table className="table compact">
          {head}
          <tbody>{open.map(row)}</tbody>
        </table>
      )}
      {undecided.length > 0 && (
        <details className="undecided-checks" data-testid="undecided-checks">
          <summary title={why?.long}>
            {undecided.length} {undecided.length === 1 ? 'check' : 'checks'} undecided:{' '}
            {undecided.map((r) => r.name).join(', ')}
            {why && <span data-testid="undecided-why"> · {why.short}</span>}
          </summary>
          {why && <p className="undecided-why">{why.long}</p>}
          <table className="table compact">
            {open.length === 0 && head}
            <tbody>{undecided.map(row)}</tbody>
          </table>
        </details>
      )}
      {folded.length > 0 && (
        <details className="passing-checks">
          <summary>
            {folded.length} {folded.length === 1 ? 'check passes' : 'checks pass'}:{' '}
            {folded.map((r) => r.name).join(', ')}
          </summary>
          <table className="table compact">
            {open.length === 0 && head}
            <tbody>{folded.map(row)}</tbody>
          </table>
        </details>
      )}
    </div>
  );
}

function VerdictCell({
  verdict,
  onRef,
}: {
  verdict: Verdict | undefined;
  onRef: (index: number) => void;
}) {
  if (!verdict) return <span className="muted">—</span>;
  const label = verdict.passed === null ? 'undecided' : verdict.passed ? 'pass' : 'fail';
  return (
    <>
      <span
        className={`badge ${verdict.passed === null ? 'undecided' : verdict.passed ? 'ok' : 'bad'}`}
      >
        {label} {verdict.score.toFixed(2)}
      </span>
      {verdict.issues.map((issue, i) => (
        <div key={i} className={`issue${issue.severity === 'warning' ? ' warning' : ''}`}>
          <code>{issue.code}</code>
          {issuePlace(issue.path) !== null && (
            <span className="issue-place"> in {issuePlace(issue.path)}:</span>
          )}{' '}
          {issue.message}
          {issue.ref !== undefined && (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => onRef(issue.ref as number)}
              >
                open it
              </button>
            </>
          )}
        </div>
      ))}
    </>
  );
}
