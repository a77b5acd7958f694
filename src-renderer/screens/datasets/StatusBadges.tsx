import type { GridRow } from '../../../src-shared/owner/datasets.ts';
import { NOT_VERIFIABLE } from './review/undecided.ts';

/**
 * Verdict badges: passed/failed, the failed checks, flagged, changed (or
 * edited, when the candidate is a person's edit), dropped, the decision. A row that fails no check but whose label could not be
 * verified (label_correct or answer_correct undecided) is not "passed": it
 * reads "undecided", in its own colour; the `unverified` filter finds those rows.
 */
export function StatusBadges({ row }: { row: GridRow }) {
  return (
    <span className="badges">
      {row.passed === null ? (
        <span className="badge neutral">not audited</span>
      ) : row.passed && row.unverified ? (
        <span
          className="badge undecided"
          title={`No check failed, but nobody could verify the label or the answer (label_correct or answer_correct undecided): ${NOT_VERIFIABLE.long}`}
        >
          undecided
        </span>
      ) : row.passed ? (
        <span className="badge ok">passed</span>
      ) : (
        <span className="badge bad" title={row.failed_checks.join(', ')}>
          {row.failed_checks.slice(0, 2).join(', ') || 'failed'}
          {row.failed_checks.length > 2 ? ` +${row.failed_checks.length - 2}` : ''}
        </span>
      )}
      {row.flagged && <span className="badge warn">flagged</span>}
      {/* A person's edit is the change to accept, not the engine's: it says so. */}
      {row.edited ? (
        <span
          className="badge info"
          title="Edited by hand: the edit, re-audited, is the candidate; accepted, the export holds it"
        >
          edited
        </span>
      ) : (
        row.changed && <span className="badge info">changed</span>
      )}
      {row.dropped && <span className="badge neutral">dropped</span>}
      {row.decision && (
        <span className={`badge ${row.decision === 'accepted' ? 'ok' : 'neutral'}`}>
          {row.decision}
        </span>
      )}
    </span>
  );
}
