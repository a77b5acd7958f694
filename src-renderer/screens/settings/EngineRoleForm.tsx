import { useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { EngineRoleView, EngineTest, EnginesView } from '../../../src-shared/owner/engines.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { NumberField } from '../../components/NumberField.tsx';

interface Draft {
  upstream: boolean;
  base_url: string;
  model: string;
  /** A new key typed in; empty keeps the stored one. */
  new_key: string;
  remove_key: boolean;
  /** null while the field holds no valid number. */
  timeout_seconds: number | null;
  concurrency: number | null;
}

const draftOf = (view: EngineRoleView): Draft => ({
  upstream: view.stored !== null,
  base_url: view.stored?.base_url ?? '',
  model: view.stored?.model ?? '',
  new_key: '',
  remove_key: false,
  timeout_seconds: view.stored?.timeout_seconds ?? 120,
  concurrency: view.stored?.concurrency ?? 4,
});

const ROLE_TEXT = {
  audit: 'every audit pass, the re-audits of fixes included',
  fix: 'the fix candidates (every repair is still re-audited under never-worse)',
} as const;

/** What the environment decides for this role, if anything (it wins over the settings). */
function envOverrides(view: EngineRoleView): string[] {
  return [...new Set(Object.values(view.in_force.origin))].filter((o) => o.startsWith('SVC_'));
}

/** One model role: the builtin engine or an OpenAI-compatible server, with a connection test. */
export function EngineRoleForm({
  view,
  onSaved,
}: {
  view: EngineRoleView;
  onSaved: (next: EnginesView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [error, setError] = useState<AppError | null>(null);
  const [test, setTest] = useState<EngineTest | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const id = (field: string) => `engine-${view.role}-${field}`;

  const invalid = draft.upstream && (draft.timeout_seconds === null || draft.concurrency === null);
  /** The form as the owner API takes it. */
  const values = () => ({
    base_url: draft.base_url.trim(),
    model: draft.model.trim() === '' ? null : draft.model.trim(),
    api_key: draft.remove_key
      ? { clear: true as const }
      : draft.new_key.trim()
        ? { set: draft.new_key.trim() }
        : { keep: true as const },
    timeout_seconds: draft.timeout_seconds ?? 120,
    concurrency: draft.concurrency ?? 4,
  });
  const save = async () => {
    setBusy('save');
    setError(null);
    setTest(null);
    try {
      const next = await api.updateEngine({
        role: view.role,
        upstream: draft.upstream ? values() : null,
      });
      onSaved(next);
      setDraft(draftOf(next[view.role]));
    } catch (e) {
      setError(e as AppError);
    } finally {
      setBusy(null);
    }
  };
  const runTest = async () => {
    setBusy('test');
    setError(null);
    try {
      // The values in the form, saved or not: test before saving.
      setTest(await api.testEngine({ role: view.role, upstream: values() }));
    } catch (e) {
      setError(e as AppError);
    } finally {
      setBusy(null);
    }
  };
  const overrides = envOverrides(view);

  return (
    <div className="card engine-card" data-testid={`engine-${view.role}`}>
      <h2>{view.model_id}</h2>
      <p className="muted">Runs {ROLE_TEXT[view.role]}.</p>
      <div className="segmented" role="radiogroup" aria-label={`${view.model_id} engine`}>
        <label>
          <input
            type="radio"
            name={id('kind')}
            checked={!draft.upstream}
            onChange={() => set({ upstream: false })}
          />
          Builtin (offline)
        </label>
        <label>
          <input
            type="radio"
            name={id('kind')}
            checked={draft.upstream}
            onChange={() => set({ upstream: true })}
          />
          OpenAI-compatible server
        </label>
      </div>
      {draft.upstream && (
        <dl className="facts form">
          <dt>
            <label htmlFor={id('url')}>Base URL</label>
          </dt>
          <dd>
            <input
              id={id('url')}
              type="url"
              placeholder="http://127.0.0.1:11434/v1"
              value={draft.base_url}
              onChange={(e) => set({ base_url: e.target.value })}
            />
          </dd>
          <dt>
            <label htmlFor={id('model')}>Model</label>
          </dt>
          <dd>
            <input
              id={id('model')}
              placeholder="empty: the server's only model"
              value={draft.model}
              onChange={(e) => set({ model: e.target.value })}
            />
          </dd>
          <dt>
            <label htmlFor={id('key')}>API key</label>
          </dt>
          <dd className="key-field">
            <input
              id={id('key')}
              type="password"
              autoComplete="off"
              placeholder={
                view.stored?.api_key && !draft.remove_key
                  ? `stored: ${view.stored.api_key} (type to replace)`
                  : 'none (local servers need none)'
              }
              value={draft.new_key}
              disabled={draft.remove_key}
              onChange={(e) => set({ new_key: e.target.value })}
            />
            {view.stored?.api_key && (
              <label className="inline">
                <input
                  type="checkbox"
                  checked={draft.remove_key}
                  onChange={(e) => set({ remove_key: e.target.checked, new_key: '' })}
                />
                remove
              </label>
            )}
          </dd>
          <dt>
            <label htmlFor={id('timeout')}>Timeout (s)</label>
          </dt>
          <dd>
            <NumberField
              id={id('timeout')}
              label="Timeout (s)"
              min={1}
              max={3600}
              value={draft.timeout_seconds ?? 120}
              onChange={(n) => set({ timeout_seconds: n })}
            />
          </dd>
          <dt>
            <label htmlFor={id('concurrency')}>Requests at once</label>
          </dt>
          <dd>
            <NumberField
              id={id('concurrency')}
              label="Requests at once"
              min={1}
              max={64}
              integer
              value={draft.concurrency ?? 4}
              onChange={(n) => set({ concurrency: n })}
            />
          </dd>
        </dl>
      )}
      <div className="actions">
        <button
          type="button"
          className="button primary"
          disabled={busy !== null || invalid}
          onClick={() => void save()}
        >
          Save {view.model_id}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy !== null || !draft.upstream || draft.base_url.trim() === '' || invalid}
          onClick={() => void runTest()}
        >
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      <p className="muted" data-testid={`engine-${view.role}-in-force`}>
        In force: {view.in_force.description}
        {overrides.length > 0 && ` (set by ${overrides.join(', ')}, which win over these settings)`}
      </p>
      {test && (
        <div className={`banner ${test.ok ? 'ok' : 'error'}`} role="status">
          <span>
            {test.message} ({test.elapsed_ms} ms)
          </span>
          {test.models.length > 1 && (
            <span className="model-list">
              {test.models.map((model) => (
                <button
                  key={model}
                  type="button"
                  className="button small"
                  onClick={() => set({ upstream: true, model })}
                >
                  {model}
                </button>
              ))}
            </span>
          )}
        </div>
      )}
      {error && <ErrorBanner error={error} />}
    </div>
  );
}
