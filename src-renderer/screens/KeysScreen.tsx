/** Keys & credits: API keys for the localhost service and the local credit ledger. */
export function KeysScreen() {
  return (
    <section className="screen" aria-labelledby="keys-title">
      <header className="screen-header">
        <h1 id="keys-title">Keys &amp; credits</h1>
      </header>
      <div className="empty">
        <p>API keys and the credit ledger are not available in this build.</p>
      </div>
    </section>
  );
}
