import type { GridRow } from '../../../src-shared/owner/datasets.ts';

/**
 * Verdict badges: passed/failed, the failed checks, flagged, changed, dropped,
 * the decision. An unverifiable label is no badge (it would sit on every row
 * of a dataset nobody can verify): the `unverified` filter finds those rows.
 */
export function StatusBadges({ row }: { row: GridRow }) {
  return (
    <span className="badges">
      {row.passed === null ? (
        <span className="badge neutral">not audited</span>
      ) : row.passed ? (
        <span className="badge ok">passed</span>
      ) : (
        <span className="badge bad" title={row.failed_checks.join(', ')}>
          {row.failed_checks.slice(0, 2).join(', ') || 'failed'}
          {row.failed_checks.length > 2 ? ` +${row.failed_checks.length - 2}` : ''}
        </span>
      )}
      {row.flagged && <span className="badge warn">flagged</span>}
      {row.changed && <span className="badge info">changed</span>}
      {row.dropped && <span className="badge neutral">dropped</span>}
      {row.decision && (
        <span className={`badge ${row.decision === 'accepted' ? 'ok' : 'neutral'}`}>
          {row.decision}
        </span>
      )}
    </span>
  );
}
