/** Datasets: the grid of imported datasets (import and review arrive with the dataset store). */
export function DatasetsScreen() {
  return (
    <section className="screen" aria-labelledby="datasets-title">
      <header className="screen-header">
        <h1 id="datasets-title">Datasets</h1>
      </header>
      <div className="empty">
        <p>No datasets yet.</p>
        <p className="muted">
          Dataset import (JSONL, JSON, CSV, Parquet) is not available in this build. Until it is,
          audit a file from a terminal or call the server from your own scripts.
        </p>
      </div>
    </section>
  );
}
