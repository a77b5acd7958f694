import { useState } from 'react';
import type { z } from 'zod';
import type { KeyRecord } from '../../../src-shared/owner/account.ts';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { toMinute } from '../../format.ts';

type Key = z.infer<typeof KeyRecord>;

/** Create (shown once), list and revoke API keys. `run` reports errors and reloads the screen. */
export function KeysCard({ keys, run }: { keys: Key[]; run: (work: () => Promise<void>) => void }) {
  const [newKey, setNewKey] = useState<{ key: string; id: string } | null>(null);
  // Once that key is revoked, there is nothing left to copy.
  const shownKey = newKey && !keys.find((k) => k.id === newKey.id)?.revoked_at ? newKey.key : null;
  const [name, setName] = useState('');
  return (
    <div className="card">
      <h2>API keys</h2>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          run(async () => {
            const created = await api.createKey({ name });
            setNewKey({ key: created.key, id: created.record.id });
            setName('');
          });
        }}
      >
        <input
          aria-label="Key name"
          placeholder="Name (e.g. notebook)"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button primary">
          Create key
        </button>
      </form>
      {shownKey && (
        <div className="banner ok" role="status">
          <strong>Copy this key now: it is shown only once.</strong>
          <span>
            <code data-testid="new-key">{shownKey}</code> <CopyButton text={shownKey} />
          </span>
        </div>
      )}
      <table className="table compact" data-testid="keys-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name || '—'}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{toMinute(key.created_at)}</td>
              <td>{key.last_used_at ? toMinute(key.last_used_at) : 'never'}</td>
              <td>
                {key.revoked_at ? (
                  <span className="badge neutral">revoked</span>
                ) : (
                  <span className="badge ok">active</span>
                )}
              </td>
              <td>
                {!key.revoked_at && (
                  <ConfirmButton
                    label="Revoke"
                    className="button small"
                    question="Clients using it stop working."

                    confirmLabel="Revoke key"
                    onConfirm={() => run(() => api.revokeKey({ id: key.id }).then(() => undefined))}
                  />
                )}
              </td>
            </tr>
          ))}
          {keys.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No key yet. A key lets scripts call the service on this machine.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
