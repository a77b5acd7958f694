import { useEffect } from 'react';
import { CopyButton } from '../components/CopyButton.tsx';
import { Snippets } from '../components/Snippets.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { transport } from '../api/client.ts';
import { useApp } from '../store.ts';

const perMillion = (perToken: string): string => `$${(Number(perToken) * 1_000_000).toFixed(2)}`;

/** The embedded server: where it listens and which models it serves at what price. */
export function ServerScreen() {
  const { status, error, loading } = useApp((s) => s.server);
  const refresh = useApp((s) => s.refreshServer);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <section className="screen" aria-labelledby="server-title">
      <header className="screen-header">
        <h1 id="server-title">Server</h1>
        <button type="button" className="button" onClick={() => void refresh()} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </header>
      {error && <ErrorBanner error={error} />}
      {status && (
        <>
          <div className="card">
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <span
                  className={`pill ${status.running ? 'ok' : 'off'}`}
                  data-testid="server-state"
                >
                  {status.running ? 'Running' : 'Stopped'}
                </span>
                {status.error && (
                  <span className="error-text" data-testid="server-error">
                    {status.error}
                  </span>
                )}
              </dd>
              <dt>Address</dt>
              <dd>
                <code data-testid="server-url">{status.url ?? 'not listening'}</code>
                {status.url && <CopyButton text={status.url} />}
              </dd>
              <dt>OpenAI base URL</dt>
              <dd>
                <code>{status.url ? `${status.url}/v1` : '—'}</code>
              </dd>
              <dt>Version</dt>
              <dd>{status.version}</dd>
              <dt>Data directory</dt>
              <dd>
                <code>{status.data_dir}</code>
              </dd>
              <dt>Connected via</dt>
              <dd>{transport === 'ipc' ? 'Electron IPC' : 'HTTP (browser)'}</dd>
            </dl>
          </div>
          <h2>Models</h2>
          <table className="table" data-testid="model-table">
            <thead>
              <tr>
                <th>Model id</th>
                <th>Context (tokens)</th>
                <th>Input / 1M tokens</th>
                <th>Output / 1M tokens</th>
              </tr>
            </thead>
            <tbody>
              {status.models.map((model) => (
                <tr key={model.id}>
                  <td>
                    <code>{model.id}</code>
                  </td>
                  <td className="num">{model.context_length.toLocaleString('en-US')}</td>
                  <td className="num">{perMillion(model.pricing.prompt)}</td>
                  <td className="num">{perMillion(model.pricing.completion)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {status.url && (
            <>
              <h2>Call it from your code</h2>
              <p className="muted">Create a key on the Keys screen and export it as SVC_API_KEY.</p>
              <Snippets url={status.url} />
            </>
          )}
          <p className="muted">
            Minimum charge ${status.pricing.minimum_charge_usd.toFixed(2)} per request, rounded up
            to the cent; at most {status.pricing.limits.samples_per_native_request} samples per
            native request.
          </p>
        </>
      )}
    </section>
  );
}
