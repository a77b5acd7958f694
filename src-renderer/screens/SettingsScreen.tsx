import { useEffect } from 'react';
import { useApp } from '../store.ts';

/** Settings: the rates and limits in force (read-only in this build). */
export function SettingsScreen() {
  const status = useApp((s) => s.server.status);
  const refresh = useApp((s) => s.refreshServer);
  useEffect(() => {
    if (!status) void refresh();
  }, [status, refresh]);
  const pricing = status?.pricing;
  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      {pricing && (
        <div className="card">
          <h2>Rates (USD per million tokens)</h2>
          <dl className="facts">
            {Object.entries(pricing.models).map(([model, rate]) => (
              <div key={model} className="fact-row">
                <dt>{model}</dt>
                <dd>
                  input ${rate.input.toFixed(2)}, output ${rate.output.toFixed(2)}
                </dd>
              </div>
            ))}
          </dl>
          <h2>Limits</h2>
          <dl className="facts">
            <dt>Cost cap per request</dt>
            <dd>${pricing.limits.cost_cap_usd_per_request.toFixed(2)}</dd>
            <dt>Requests per minute (native / v1)</dt>
            <dd>
              {pricing.limits.requests_per_minute_native} / {pricing.limits.requests_per_minute_v1}
            </dd>
          </dl>
        </div>
      )}
    </section>
  );
}
