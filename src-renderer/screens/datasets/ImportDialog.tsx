import { useEffect, useRef, useState } from 'react';
import { formatLabelOf } from '../../../src-shared/file-formats.ts';
import type { ShapeId } from '../../../src-shared/owner/datasets.ts';
import type { OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { fileSize } from '../../format.ts';
import { useImport } from '../../state/imports.ts';
import { MappedPreview } from './MappedPreview.tsx';
import { MappingEditor } from './MappingEditor.tsx';
import { UnknownRoles } from './UnknownRoles.tsx';

/** How long after Import is pressed the preview it waits for may arrive and still import. */
const IMPORT_ASKED_MS = 30_000;

/** The preview of a dropped or picked file: detected shape (correctable), mapped rows, row errors. */
export function ImportDialog() {
  const fileName = useImport((s) => s.fileName);
  // Keyed by the file: a name typed for an import that was cancelled does not carry over.
  // Once the first rows are in, the dataset's grid shows the import (see imports.ts).
  const handedOver = useImport((s) => s.datasetId !== null);
  return fileName && !handedOver ? <ImportDialogFor key={fileName} fileName={fileName} /> : null;
}

function ImportDialogFor({ fileName }: { fileName: string }) {
  const {
    preview,
    shape,
    busy,
    progress,
    error,
    chooseShape,
    chooseMapping,
    choosePaths,
    paths,
    commit,
    cancel,
    queue,
  } = useImport();
  const [name, setName] = useState('');
  const [incomplete, setIncomplete] = useState<string | null>(null);
  const datasetName = name || fileName.replace(/\.[^.]+$/, '');
  const errors = preview?.rows.filter((r) => r.error).length ?? 0;
  const firstError = preview?.rows.find((r) => r.error)?.error;
  // Why Import is off, when it is: said beside the button.
  const blocked = !preview
    ? null
    : preview.rows.length === 0
      ? 'The file holds no rows.'
      : incomplete
        ? `The mapping is not complete: ${incomplete}.`
        : preview.mapped === 0
          ? `The mapping maps none of the first ${preview.rows.length} rows${firstError ? `: ${firstError}` : ''}.`
          : null;

  // A role typed and not yet applied is applied when its box loses the focus: pressing Import
  // does that, and the preview it starts disables the button before the click lands, so the
  // first click only applied the role. The press is remembered with the preview it came on; the
  // import starts once the new preview is in, if the mapping still maps rows.
  const importAsked = useRef<{ on: typeof preview; at: number } | null>(null);
  useEffect(() => {
    const asked = importAsked.current;
    if (!asked || busy || preview === asked.on) return;
    importAsked.current = null;
    if (preview && shape && blocked === null && Date.now() - asked.at < IMPORT_ASKED_MS) {
      void commit(datasetName);
    }
  }, [busy, preview, shape, blocked, commit, datasetName]);

  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-label="Import dataset" data-testid="import-dialog">
        <h2>Import {fileName}</h2>
        {queue.length > 0 && (
          <p className="muted">
            {queue.length} more {queue.length === 1 ? 'file waits' : 'files wait'}:{' '}
            {queue.map((f) => f.name).join(', ')}
          </p>
        )}
        {error && <ErrorBanner error={error} />}
        {!preview && busy && <p>Reading the file…</p>}
        {preview && (
          <>
            <div className="form-row">
              <label>
                Shape{' '}
                <select
                  aria-label="Shape"
                  value={shape ?? ''}
                  disabled={busy}
                  onChange={(e) => void chooseShape(e.target.value as ShapeId)}
                >
                  {shape === null && (
                    <option value="" disabled>
                      choose a shape…
                    </option>
                  )}
                  <option value="custom" disabled={shape !== 'custom'}>
                    your own field mapping
                  </option>
                  {preview.shapes.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.label} ({s.task_type.replace('_', ' ')})
                    </option>
                  ))}
                </select>
              </label>
              <span className="muted" data-testid="detected">
                {preview.detected
                  ? `detected: ${preview.detected} (${Math.round(preview.confidence * 100)}% of the first rows)`
                  : 'no built-in shape detected: map the fields below'}
              </span>
              <span className="muted">
                {formatLabelOf(preview.format, fileName)}, {fileSize(preview.bytes)}
              </span>
            </div>
            {preview.paths !== null && (
              <label className="form-row">
                Conversations{' '}
                <select
                  aria-label="Conversations"
                  value={paths}
                  disabled={busy}
                  onChange={(e) => void choosePaths(e.target.value as OasstPaths)}
                >
                  <option value="best">a row per tree, along the best-ranked replies</option>
                  <option value="all">a row per path (every root-to-leaf path of a tree)</option>
                </select>
              </label>
            )}
            <label className="form-row">
              Name{' '}
              <input
                aria-label="Dataset name"
                value={datasetName}
                onChange={(e) => setName(e.target.value)}
              />
            </label>
            <MappingEditor
              preview={preview}
              disabled={busy}
              onChange={(mapping) => void chooseMapping(mapping)}
              onIncomplete={setIncomplete}
            />
            <UnknownRoles
              preview={preview}
              disabled={busy}
              onChange={(mapping) => void chooseMapping(mapping)}
            />
            <MappedPreview preview={preview} />
            {preview.rows.length === 0 && (
              <p className="error-text">The file holds no rows: there is nothing to import.</p>
            )}
            {errors > 0 && preview.mapped > 0 && (
              <p className="muted">
                {errors} of the first {preview.rows.length} rows {errors === 1 ? 'does' : 'do'} not
                fit this mapping or cannot be read; such rows are reported with their row numbers
                and skipped.
              </p>
            )}
          </>
        )}
        {progress && (
          <div className="progress" data-testid="import-progress">
            <progress max={1} value={progress.fraction} /> {progress.rows.toLocaleString('en-US')}{' '}
            rows, {progress.errors} errors
          </div>
        )}
        <div className="dialog-actions">
          {blocked && (
            <span className="error-text" data-testid="import-blocked">
              {blocked}
            </span>
          )}
          <button type="button" className="button" onClick={cancel} disabled={busy && !!progress}>
            Cancel
          </button>
          <button
            type="button"
            className="button primary"
            disabled={!preview || !shape || busy || blocked !== null}
            onMouseDown={() => {
              importAsked.current = { on: preview, at: Date.now() };
              // Only a press that started a preview (a role applied on leaving its box) waits.
              setTimeout(() => {
                if (!useImport.getState().busy) importAsked.current = null;
              }, 0);
            }}
            onClick={() => {
              importAsked.current = null;
              void commit(datasetName);
            }}
          >
            Import
          </button>
        </div>
      </div>
    </div>
  );
}
