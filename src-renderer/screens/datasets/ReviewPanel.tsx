import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { RowDetail } from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock, Issue } from '../../../src-shared/schemas/blocks.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { count } from '../../format.ts';
import {
  discardDraft,
  draftChanged,
  draftOf,
  keepDraft,
  type EditDraft,
} from '../../state/edit-drafts.ts';
import { guardLeavingRow, useGrid } from '../../state/grid.ts';
import { ContaminationEvidence } from './contamination/ContaminationEvidence.tsx';
import { copyIssue, DuplicatePair } from './review/DuplicatePair.tsx';
import { EditForm, type EditGuard } from './review/EditForm.tsx';
import { SampleDiff } from './review/SampleDiff.tsx';
import { Verdicts } from './review/Verdicts.tsx';

type Decision = 'accepted' | 'rejected' | 'dropped' | 'restored' | null;

const issuesOf = (audit: AuditBlock | null): Issue[] =>
  Object.values(audit?.checks ?? {}).flatMap((verdict) => verdict.issues);

/** The keys of the review, for the `?` list and the buttons' titles. */
export const REVIEW_KEYS: [string, string][] = [
  ['↑ / ↓', 'the previous / next row'],
  ['Enter', 'open the review of the focused row'],
  ['a', 'accept the fix (or the edit), then the next row'],
  ['r', 'reject it, then the next row'],
  ['d', 'drop the row (or restore it), then the next row'],
  ['e', 'edit the sample'],
  ['Esc', 'close the edit, the review, a dialog'],
  ['?', 'this list'],
];

/** What the review says of a person's edit: how it audits, and whether the export holds it. */
function editedSays(decision: RowDetail['decision'], passes: boolean): string {
  const audited = passes ? 'every check passes' : 'some checks still fail';
  if (decision === 'accepted') return `Your edit, accepted: the export holds it (${audited}).`;
  if (decision === 'rejected') return 'Your edit, rejected: the export keeps the row as imported.';
  return `Your edit, re-audited: ${audited}. Accept it (a) to export it; the engine's never-worse test is not applied to an edit.`;
}

/**
 * One row under review: why it fails and where (verdicts first, issues
 * located in the sample), what the fix changed (structured, side by side),
 * and what a person can do: accept or reject the fix, edit the sample (the
 * edit is re-audited and becomes the candidate to accept), drop the row.
 * Every action is one key away and moves on to the next row of the filter.
 */
export function ReviewPanel({ datasetId, index }: { datasetId: string; index: number }) {
  const [detail, setDetail] = useState<RowDetail | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  /**
   * The row whose edit form is open. Held by row, not as a flag: the form of one row stayed open
   * over the next one opened, its draft saved into that row.
   */
  const [editingIndex, setEditingIndex] = useState<number | null>(null);
  const editing = editingIndex === index;
  /** An edit of this row left open when the review closed unasked: the row opens on it again. */
  const [resume, setResume] = useState<EditDraft | null>(null);
  const [rowOpened, setRowOpened] = useState<string | null>(null);
  const row = `${datasetId}:${index}`;
  if (rowOpened !== row) {
    // Set while rendering, as the row changes: the first paint of the row shows its form.
    setRowOpened(row);
    const kept = draftOf(datasetId, index);
    const changed = kept !== null && draftChanged(kept);
    setResume(changed ? kept : null);
    setEditingIndex(changed ? index : null);
  }
  /** Opens the form, or closes it and forgets its draft (Cancel, Esc, saved). */
  const setEditing = useCallback(
    (open: boolean) => {
      if (!open) discardDraft(datasetId, index);
      setResume(null);
      setEditingIndex(open ? index : null);
    },
    [datasetId, index],
  );
  /** Whether an edit is being saved, for the leave guard (a closure of the row it guards). */
  const savingNow = useRef(false);
  /** What Esc and leaving the row do to the open edit form (ask before unsaved changes go). */
  const editGuard = useRef<EditGuard | null>(null);
  const [saving, setSaving] = useState(false);
  const [keysShown, setKeysShown] = useState(false);
  /** The row whose pair was just kept apart (until the rescan clears its verdict). */
  const [keptBoth, setKeptBoth] = useState<number | null>(null);
  const refresh = useGrid((s) => s.refresh);
  const show = useGrid((s) => s.showDetail);
  const nextIndex = useGrid((s) => s.nextIndex);
  const generation = useGrid((s) => s.generation);
  /** The review's own box: back to its top on another row and after an edit is saved. */
  const panel = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    api
      .datasetRow({ dataset_id: datasetId, index })
      .then((row) => {
        if (!live) return;
        setDetail(row);
        setError(null);
      })
      .catch((e: unknown) => live && setError(e as AppError));
    return () => {
      live = false;
    };
  }, [datasetId, index, generation]);

  const hasFix = (detail?.fix?.changes.length ?? 0) > 0;
  const decide = useCallback(
    async (decision: Decision, moveOn: boolean) => {
      // The next row is taken before the decision: the row may leave the filter.
      const next = moveOn ? nextIndex(index, 1) : undefined;
      try {
        await api.decide({ dataset_id: datasetId, indices: [index], decision });
        refresh();
        // Only if the row is still the one reviewed: closed (Escape) or left for another row while
        // the decision was on its way, the review stays as the person left it.
        if (next !== undefined && useGrid.getState().detailIndex === index) show(next);
      } catch (e) {
        setError(e as AppError);
      }
    },
    [datasetId, index, nextIndex, refresh, show],
  );

  const save = async (sample: Record<string, unknown>) => {
    setSaving(true);
    savingNow.current = true;
    try {
      const saved = await api.editRow({ dataset_id: datasetId, index, sample });
      // Saved: the draft is gone even if the row was left meanwhile (it was kept for a failure).
      discardDraft(datasetId, index);
      refresh();
      // Another row opened while the edit was re-audited: its detail stays. The saved row's
      // showed under it until the refresh read the other row again, and a key pressed then
      // decided on the row selected, not the one shown.
      if (useGrid.getState().detailIndex !== index) return;
      setDetail(saved);
      setEditing(false);
      // The form was long and scrolled: what the edit did is said at the top, under the header.
      panel.current?.scrollTo({ top: 0 });
    } catch (e) {
      setError(e as AppError);
    } finally {
      savingNow.current = false;
      setSaving(false);
    }
  };

  // The review's keys; a key typed into a field or a select is the field's. A layout effect:
  // the listener is the one of the row shown before the browser can send the next key (a
  // passive effect ran after the paint, and an `e` pressed as the row appeared was dropped).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') {
        if (keysShown) setKeysShown(false);
        else if (editing) (editGuard.current?.escape ?? (() => setEditing(false)))();
        else show(null);
        event.preventDefault();
        return;
      }
      if (editing || !detail) return;
      const act = (run: () => void) => {
        event.preventDefault();
        run();
      };
      switch (event.key) {
        case 'a':
          if (hasFix) act(() => void decide('accepted', true));
          break;
        case 'r':
          if (hasFix) act(() => void decide('rejected', true));
          break;
        case 'd':
          act(() => void decide(detail.dropped ? 'restored' : 'dropped', true));
          break;
        case 'e':
          act(() => setEditing(true));
          break;
        case '?':
          act(() => setKeysShown((v) => !v));
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [decide, detail, editing, hasFix, keysShown, setEditing, show]);

  // Another row (a click in the grid, an arrow key, a link) or none: the form asks first.
  useLayoutEffect(() => {
    if (!editing) return;
    return guardLeavingRow(() => {
      const leaves = editGuard.current?.leave() ?? true;
      // Back on this row later, the review opens as it was before the edit, not on a fresh form.
      if (leaves) {
        if (!savingNow.current) discardDraft(datasetId, index);
        setEditingIndex(null);
      }
      return leaves;
    });
  }, [datasetId, editing, index]);

  if (!detail) {
    return (
      <aside className="review" aria-label="Review">
        {error ? <ErrorBanner error={error} /> : 'Loading…'}
      </aside>
    );
  }
  const edited = detail.fix?.edited === true;
  const candidate = detail.decision === 'rejected' ? null : detail.fixed_sample;
  const editBase = candidate
    ? {
        sample: candidate,
        from: edited
          ? 'Edits your earlier edit.'
          : detail.decision === 'accepted'
            ? 'Edits the accepted fix.'
            : 'Edits the suggested fix.',
      }
    : { sample: detail.sample, from: 'Edits the row as imported.' };
  const failing = detail.audit?.passed === false;
  // A copy's main action is to drop it (or keep both), not its fix.
  const copy = detail.dropped || keptBoth === detail.index ? null : copyIssue(detail);
  const keepBoth = async (ref: number) => {
    try {
      await api.keepBoth({ dataset_id: datasetId, index: detail.index, duplicate_of: ref });
      setKeptBoth(detail.index);
    } catch (e) {
      setError(e as AppError);
    }
  };
  return (
    <aside className="review" aria-label="Review" data-testid="review" ref={panel}>
      <header className="review-header">
        <h2>Row {detail.source_row}</h2>
        <span
          className="muted"
          data-testid="review-state"
          title={
            edited ? 'Edited by hand: the candidate is your edit, not the engine’s fix' : undefined
          }
        >
          {detail.dropped
            ? 'dropped'
            : `${edited ? 'edited · ' : ''}${detail.decision ?? (hasFix ? 'pending' : '')}`}
        </span>
        <span className="spacer" />
        {/* Undecided: accept or reject. Decided: the decision stands, Undo takes it back. */}
        {hasFix && !detail.decision && (
          <>
            <button
              type="button"
              className={copy ? 'button small' : 'button primary small'}
              title="a"
              onClick={(e) => {
                // The next row opens: the button must not stay lit as if still pressed.
                e.currentTarget.blur();
                void decide('accepted', true);
              }}
            >
              {edited ? 'Accept edit' : 'Accept fix'}
            </button>
            <button
              type="button"
              className="button small"
              title="r"
              onClick={() => void decide('rejected', true)}
            >
              Reject
            </button>
          </>
        )}
        {hasFix && detail.decision && (
          <button type="button" className="button small" onClick={() => void decide(null, false)}>
            Undo {detail.decision === 'accepted' ? 'accept' : 'reject'}
          </button>
        )}
        <button type="button" className="button small" title="e" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button
          type="button"
          className="button small"
          title="d"
          onClick={() => void decide(detail.dropped ? 'restored' : 'dropped', false)}
        >
          {detail.dropped ? 'Restore' : 'Drop'}
        </button>
        <button
          type="button"
          className="button small"
          title="Esc"
          aria-label="Close the review"
          onClick={() => show(null)}
        >
          ×
        </button>
      </header>
      {error && <ErrorBanner error={error} />}
      {detail.dropped && (
        <p className="banner" role="status" data-testid="dropped-banner">
          Dropped: the export leaves this row out. <b>d</b> restores it.
        </p>
      )}
      {detail.fix?.flagged && !edited && (
        <p className="banner warn-banner" role="status">
          Flagged:{' '}
          {hasFix
            ? 'a check still fails after the fix; look before accepting.'
            : 'no repair passed the never-worse test. Edit it (e) or drop it (d).'}
        </p>
      )}
      {edited && (
        <p className="banner" role="status" data-testid="edited-banner">
          {editedSays(detail.decision, detail.reaudit?.passed === true)}
        </p>
      )}
      {!hasFix && failing && !detail.fix?.flagged && !detail.dropped && !copy && (
        <p className="banner" role="status">
          No fix yet: run a fix, or edit it (e) or drop it (d).
        </p>
      )}
      {keptBoth === detail.index && copyIssue(detail) && (
        <p className="banner" role="status" data-testid="kept-both">
          Kept both: the scan, running now, no longer counts this pair as duplicates.
        </p>
      )}
      {copy && (
        <DuplicatePair
          datasetId={datasetId}
          detail={detail}
          issue={copy}
          onDrop={() => void decide('dropped', true)}
          onKeepBoth={() => keepBoth(copy.ref)}
          onOpen={show}
        />
      )}
      <Verdicts
        audit={detail.audit}
        reaudit={hasFix ? detail.reaudit : null}
        edited={detail.fix?.edited === true}
        onRef={show}
      />
      <ContaminationEvidence audit={detail.audit} sample={detail.sample} />
      {/* A copy with no fix: the pair above shows its sample already. */}
      {/* Only over its own row's sample: the detail read before may still be the last row's. */}
      {editing && detail.index === index ? (
        <EditForm
          key={`${datasetId}:${detail.index}`}
          // An edit builds on the candidate the review shows (a fix or an earlier edit), unless
          // it was rejected: started from the row as imported, an edit after an accepted fix
          // threw the fix away.
          sample={editBase.sample}
          from={editBase.from}
          busy={saving}
          onSave={(sample) => void save(sample)}
          onCancel={() => setEditing(false)}
          guardRef={editGuard}
          kept={resume}
          onDraft={(draft) => keepDraft(datasetId, detail.index, draft)}
        />
      ) : copy && !hasFix ? null : (
        <SampleDiff
          // A row of its own starts afresh (folds shut, scrolled to its first change); the same
          // row read again after a decision keeps where the reviewer was.
          key={`${datasetId}:${detail.index}`}
          before={detail.sample}
          after={hasFix ? detail.fixed_sample : null}
          beforeIssues={issuesOf(detail.audit)}
          afterIssues={issuesOf(hasFix ? detail.reaudit : null)}
        />
      )}
      {hasFix && (
        <details className="change-list">
          <summary>{count(detail.fix?.changes.length ?? 0, 'change')} (JSON Patch)</summary>
          <ol className="changes" data-testid="changes">
            {detail.fix?.changes.map((change, i) => (
              <li key={i}>
                <code>{change.op}</code> <code>{change.path}</code>{' '}
                <span className="muted">({change.reason})</span>
              </li>
            ))}
          </ol>
        </details>
      )}
      {keysShown && (
        <div className="key-help" role="dialog" aria-label="Keys" data-testid="key-help">
          <h3>Keys</h3>
          <dl>
            {REVIEW_KEYS.map(([key, what]) => (
              <div key={key}>
                <dt>
                  <kbd>{key}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <button type="button" className="button small" onClick={() => setKeysShown(false)}>
            Close
          </button>
        </div>
      )}
    </aside>
  );
}
