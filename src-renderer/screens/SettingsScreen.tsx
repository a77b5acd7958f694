import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { AppError } from '../../src-shared/errors.ts';
import type { EditableSettings } from '../../src-shared/owner-api.ts';
import { api } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { EnginesSection } from './settings/EnginesSection.tsx';

type Settings = z.infer<typeof EditableSettings>;

/**
 * Rates, limits and the server (port, on at start-up), saved together; the
 * models' engines below, saved per model. Changes are validated in main.
 */
export function SettingsScreen() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api.getSettings({}).then(setSettings, (e: unknown) => setError(e as AppError));
  }, []);
  if (!settings)
    return (
      <section className="screen">{error ? <ErrorBanner error={error} /> : 'Loading…'}</section>
    );

  const number = (value: string) => Number(value);
  const save = async () => {
    setError(null);
    setSaved(false);
    try {
      setSettings(await api.updateSettings(settings));
      setSaved(true);
    } catch (e) {
      setError(e as AppError);
    }
  };
  const rate = (model: 'svc-audit-1' | 'svc-fix-1', side: 'input' | 'output') => (
    <input
      aria-label={`${model} ${side} rate`}
      className="rate"
      type="number"
      min={0}
      step={0.01}
      value={settings.rates[model][side]}
      onChange={(e) =>
        setSettings({
          ...settings,
          rates: {
            ...settings.rates,
            [model]: { ...settings.rates[model], [side]: number(e.target.value) },
          },
        })
      }
    />
  );
  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen-header">
        <h1 id="settings-title">Settings</h1>
        <button type="button" className="button primary" onClick={() => void save()}>
          Save
        </button>
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
        </div>
        <div className="card">
          <h2>Limits</h2>
          <dl className="facts">
            <dt>Cost cap per request (USD)</dt>
            <dd>
              <input
                aria-label="Cost cap"
                type="number"
                min={0.01}
                step={0.01}
                value={settings.limits.cost_cap_usd_per_request}
                onChange={(e) =>
                  setSettings({
                    ...settings,
                    limits: {
                      ...settings.limits,
                      cost_cap_usd_per_request: number(e.target.value),
                    },
                  })
                }
              />
            </dd>
            <dt>Requests per minute, native</dt>
            <dd>
              <input
                aria-label="Native requests per minute"
                type="number"
                min={1}
                value={settings.limits.requests_per_minute_native}
                onChange={(e) =>
                  setSettings({
                    ...settings,
                    limits: {
                      ...settings.limits,
                      requests_per_minute_native: number(e.target.value),
                    },
                  })
                }
              />
            </dd>
            <dt>Requests per minute, /v1</dt>
            <dd>
              <input
                aria-label="v1 requests per minute"
                type="number"
                min={1}
                value={settings.limits.requests_per_minute_v1}
                onChange={(e) =>
                  setSettings({
                    ...settings,
                    limits: { ...settings.limits, requests_per_minute_v1: number(e.target.value) },
                  })
                }
              />
            </dd>
          </dl>
        </div>
        <div className="card">
          <h2>Server</h2>
          <dl className="facts">
            <dt>Start with the app</dt>
            <dd>
              <input
                aria-label="Server on"
                type="checkbox"
                checked={settings.server.enabled}
                onChange={(e) =>
                  setSettings({
                    ...settings,
                    server: { ...settings.server, enabled: e.target.checked },
                  })
                }
              />
            </dd>
            <dt>Port</dt>
            <dd>
              <input
                aria-label="Port"
                type="number"
                min={0}
                max={65535}
                value={settings.server.port}
                onChange={(e) =>
                  setSettings({
                    ...settings,
                    server: { ...settings.server, port: number(e.target.value) },
                  })
                }
              />
            </dd>
          </dl>
          <p className="muted">
            The desktop app applies server changes at its next start; `svc serve` takes --port.
          </p>
        </div>
      </div>
      <EnginesSection />
    </section>
  );
}
