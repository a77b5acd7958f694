import type { AppError } from '../../src-shared/errors.ts';

/** An error as the user should read it, with the one hint that helps for a missing session. */
export function ErrorBanner({ error }: { error: AppError }) {
  return (
    <div className="banner error" role="alert">
      <strong>{error.code === 'unauthorized' ? 'Not signed in' : 'Something went wrong'}</strong>
      <span>{error.message}</span>
      {error.code === 'unauthorized' && (
        <span>
          Open the <code>open http://…/?token=…</code> link that <code>svc serve</code> printed.
        </span>
      )}
    </div>
  );
}
