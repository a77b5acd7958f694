import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors.ts';
import type { EnginesView } from '../../../src-shared/owner/engines.ts';
import { api } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { EngineRoleForm } from './EngineRoleForm.tsx';

const STORAGE_TEXT: Record<string, string> = {
  'electron-safe-storage': "API keys are sealed with the system's keychain (Electron safeStorage).",
  plain:
    "API keys are kept in the data folder's database, readable by your user only; the desktop app seals them with the system keychain.",
};

/** The engine of each model: builtin or an OpenAI-compatible server (Ollama, llama.cpp, vLLM, OpenAI). */
export function EnginesSection() {
  const [view, setView] = useState<EnginesView | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    api.getEngines({}).then(setView, (e: unknown) => setError(e as AppError));
  }, []);
  return (
    <section aria-labelledby="engines-title">
      <h2 id="engines-title" className="section-title">
        Models
      </h2>
      {error && <ErrorBanner error={error} />}
      {view && (
        <>
          <p className="muted">
            Each model runs on the builtin engine or on any OpenAI-compatible server; the builtin
            checks always run and the server adds its judgments. {STORAGE_TEXT[view.secret_storage]}
          </p>
          <div className="cards">
            <EngineRoleForm key={`audit`} view={view.audit} onSaved={setView} />
            <EngineRoleForm key={`fix`} view={view.fix} onSaved={setView} />
          </div>
        </>
      )}
    </section>
  );
}
