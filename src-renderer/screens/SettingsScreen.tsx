import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { AppError } from '../../src-shared/errors.ts';
import type { EditableSettings } from '../../src-shared/owner-api.ts';
import { api } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { NumberField } from '../components/NumberField.tsx';
import { ContaminationCard } from './settings/ContaminationCard.tsx';
import { EnginesSection } from './settings/EnginesSection.tsx';
import { fieldMessage } from './settings/field-error.ts';

type Settings = z.infer<typeof EditableSettings>;
type Model = 'svc-audit-1' | 'svc-fix-1';

/**
 * Rates, limits and the server (port, on at start-up), saved together; the
 * models' engines below, saved per model. A field that is empty or out of
 * range blocks saving (it is never taken as 0). Changes are validated in
 * main as well.
 */
export function SettingsScreen() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState(false);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    api.getSettings({}).then(setSettings, (e: unknown) => setError(e as AppError));
  }, []);
  if (!settings)
    return (
      <section className="screen">{error ? <ErrorBanner error={error} /> : 'Loading…'}</section>
    );

  /** Applies an edit; a field without a valid number is remembered, and saving waits for it. */
  const edit = (
    field: string,
    value: number | null,
    apply: (s: Settings, n: number) => Settings,
  ) => {
    setSaved(false);
    setInvalid((current) => {
      const next = new Set(current);
      if (value === null) next.add(field);
      else next.delete(field);
      return next;
    });
    if (value !== null) setSettings(apply(settings, value));
  };
  const save = async () => {
    setError(null);
    setSaved(false);
    try {
      setSettings(await api.updateSettings(settings));
      setSaved(true);
      setVersion((v) => v + 1);
    } catch (e) {
      setError(e as AppError);
    }
  };
  const rate = (model: Model, side: 'input' | 'output') => (
    <NumberField
      key={`${model}-${side}-${version}`}
      label={`${model} ${side} rate`}
      className="rate"
      min={0}
      max={100_000}
      value={settings.rates[model][side]}
      onChange={(n) =>
        edit(`${model}.${side}`, n, (s, value) => ({
          ...s,
          rates: { ...s.rates, [model]: { ...s.rates[model], [side]: value } },
        }))
      }
    />
  );
  const limit = (
    name: keyof Settings['limits'],
    label: string,
    bounds: { min: number; max?: number; integer?: boolean },
  ) => (
    <NumberField
      key={`${name}-${version}`}
      label={label}
      {...bounds}
      value={settings.limits[name]}
      onChange={(n) =>
        edit(name, n, (s, value) => ({ ...s, limits: { ...s.limits, [name]: value } }))
      }
    />
  );

  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen-header">
        <h1 id="settings-title">Settings</h1>
        <span className="header-actions">
          {invalid.size > 0 && (
            <span className="error-text" role="status">
              {invalid.size === 1 ? 'A field needs' : `${invalid.size} fields need`} a valid number:{' '}
              {[...invalid].join(', ')}
            </span>
          )}
          <button
            type="button"
            className="button primary"
            disabled={invalid.size > 0}
            onClick={() => void save()}
          >
            Save
          </button>
        </span>
      </header>
      {error && <ErrorBanner error={error} />}
      {saved && (
        <div className="banner ok" role="status">
          Saved.
        </div>
      )}
      <div className="cards">
        <div className="card">
          <h2>Rates (USD per million tokens)</h2>
          <dl className="facts">
            <dt>svc-audit-1</dt>
            <dd>
              in {rate('svc-audit-1', 'input')} out {rate('svc-audit-1', 'output')}
            </dd>
            <dt>svc-fix-1</dt>
            <dd>
              in {rate('svc-fix-1', 'input')} out {rate('svc-fix-1', 'output')}
            </dd>
          </dl>
          <p className="muted">Every request costs at least one cent, rounded up to the cent.</p>
        </div>
        <div className="card">
          <h2>Limits</h2>
          <dl className="facts">
            <dt>Cost cap per request (USD)</dt>
            <dd>{limit('cost_cap_usd_per_request', 'Cost cap', { min: 0.01, max: 1000 })}</dd>
            <dt>Requests per minute, native</dt>
            <dd>
              {limit('requests_per_minute_native', 'Native requests per minute', {
                min: 1,
                max: 100_000,
                integer: true,
              })}
            </dd>
            <dt>Requests per minute, /v1</dt>
            <dd>
              {limit('requests_per_minute_v1', 'v1 requests per minute', {
                min: 1,
                max: 100_000,
                integer: true,
              })}
            </dd>
          </dl>
          <p className="muted">Per API key. The app’s own runs are not limited.</p>
        </div>
        <div className="card">
          <h2>Dataset checks</h2>
          <dl className="facts">
            <dt>Near-duplicate threshold</dt>
            <dd>
              <NumberField
                key={`dedup-${version}`}
                label="Near-duplicate threshold"
                min={0.5}
                max={1}
                value={settings.dedup.threshold}
                onChange={(n) =>
                  edit('dedup.threshold', n, (s, value) => ({
                    ...s,
                    dedup: { ...s.dedup, threshold: value },
                  }))
                }
              />
            </dd>
          </dl>
          <p className="muted">
            Two samples whose word pairs overlap at least this much (Jaccard, 0.5 to 1) are near
            duplicates; equal after normalising case, spaces and punctuation, exact ones.
          </p>
        </div>
        <ContaminationCard
          value={settings.contamination.benchmarks}
          error={fieldMessage(error?.message, '/contamination/benchmarks')}
          onChange={(benchmarks) => {
            setSaved(false);
            setSettings({ ...settings, contamination: { benchmarks } });
          }}
        />
        <div className="card">
          <h2>Engine threads</h2>
          <dl className="facts">
            <dt>
              <label htmlFor="engine-workers-auto">One worker thread per core</label>
            </dt>
            <dd>
              <input
                id="engine-workers-auto"
                type="checkbox"
                checked={settings.engine.workers === null}
                onChange={(e) => {
                  setSaved(false);
                  setInvalid((current) => {
                    const next = new Set(current);
                    next.delete('engine.workers');
                    return next;
                  });
                  setSettings({
                    ...settings,
                    engine: { workers: e.target.checked ? null : navigator.hardwareConcurrency },
                  });
                }}
              />
            </dd>
            {settings.engine.workers !== null && (
              <>
                <dt>Worker threads</dt>
                <dd>
                  <NumberField
                    key={`engine-workers-${version}`}
                    label="Worker threads"
                    min={0}
                    max={256}
                    integer
                    value={settings.engine.workers}
                    onChange={(n) =>
                      edit('engine.workers', n, (s, value) => ({
                        ...s,
                        engine: { workers: value },
                      }))
                    }
                  />
                </dd>
              </>
            )}
          </dl>
          <p className="muted">
            The builtin engine runs large batches (runs, the CLI, server requests) on these threads,
            in parallel; 0 keeps it on the main thread. Results and charges are the same either way.
          </p>
        </div>
        <div className="card">
          <h2>Server (desktop app)</h2>
          <dl className="facts">
            <dt>
              <label htmlFor="server-enabled">Start the server with the app</label>
            </dt>
            <dd>
              <input
                id="server-enabled"
                aria-label="Server on"
                type="checkbox"
                checked={settings.server.enabled}
                onChange={(e) => {
                  setSaved(false);
                  setSettings({
                    ...settings,
                    server: { ...settings.server, enabled: e.target.checked },
                  });
                }}
              />
            </dd>
            <dt>Port</dt>
            <dd>
              <NumberField
                key={`port-${version}`}
                label="Port"
                min={0}
                max={65535}
                integer
                value={settings.server.port}
                onChange={(n) =>
                  edit('port', n, (s, value) => ({ ...s, server: { ...s.server, port: value } }))
                }
              />
            </dd>
          </dl>
          <p className="muted">
            The desktop app applies these when they are saved (0 picks a free port).{' '}
            <code>svc serve</code> always runs its server and takes <code>--port</code>.
          </p>
        </div>
      </div>
      <EnginesSection />
    </section>
  );
}
