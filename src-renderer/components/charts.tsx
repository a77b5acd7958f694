/**
 * The Overview's charts, as plain SVG and HTML: horizontal bars of failures
 * and warnings whose segments are buttons (a click filters the grid),
 * columns for the answer position, and log-binned histograms. A chart
 * library would bring ~100 kB for a handful of rectangles and make each bar a
 * keyboard-reachable button harder, not easier.
 */

export interface TallyBar {
  name: string;
  failed: number;
  warned: number;
}

/**
 * One row per name: a red segment for failures and an amber one for
 * warnings, both scaled to the largest total, each a button; the name is one
 * too (its failures, else its warnings), a target wider than a thin segment.
 */
export function TallyBars({
  label,
  bars,
  total,
  onFailed,
  onWarned,
  empty = 'Nothing failed or warned.',
}: {
  label: string;
  bars: TallyBar[];
  /** Rows in all: the share each bar is of. */
  total: number;
  onFailed: (name: string) => void;
  onWarned: (name: string) => void;
  /** What no bars mean (nothing checked yet is not "nothing failed"). */
  empty?: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.failed + b.warned));
  if (bars.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="tally-bars" aria-label={label}>
      {bars.map((bar) => (
        <li key={bar.name}>
          <button
            type="button"
            className="tally-name"
            title={`${bar.name}: show the rows that ${bar.failed > 0 ? 'failed' : 'warned'}`}
            onClick={() => (bar.failed > 0 ? onFailed(bar.name) : onWarned(bar.name))}
          >
            {bar.name}
          </button>
          <span className="tally-track">
            {bar.failed > 0 && (
              <button
                type="button"
                className="tally-segment failed"
                style={{ width: `${(bar.failed / max) * 100}%` }}
                title={`${bar.name}: ${bar.failed} rows failed (${percent(bar.failed, total)}): show them`}
                aria-label={`${bar.name}: ${bar.failed} failed`}
                onClick={() => onFailed(bar.name)}
              />
            )}
            {bar.warned > 0 && (
              <button
                type="button"
                className="tally-segment warned"
                style={{ width: `${(bar.warned / max) * 100}%` }}
                title={`${bar.name}: ${bar.warned} rows warned (${percent(bar.warned, total)}): show them`}
                aria-label={`${bar.name}: ${bar.warned} warned`}
                onClick={() => onWarned(bar.name)}
              />
            )}
          </span>
          <span className="tally-count">
            {bar.failed > 0 && <span className="bad">{bar.failed}</span>}
            {bar.failed > 0 && bar.warned > 0 && ' · '}
            {bar.warned > 0 && <span className="warn">{bar.warned}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}

const percent = (n: number, total: number): string =>
  total === 0 ? '0%' : `${Math.round((n / total) * 1000) / 10}%`;

/** The width of an axis label, in the chart's units (11 px digits are about 7 wide). */
const LABEL_CHAR = 7;
const LABEL_GAP = 6;

/**
 * Columns with labels under them; an optional expected value drawn as a tick
 * on each. Labels that would touch are thinned (every second, third, ...
 * column keeps one), and `axis` names what the labels count, under them.
 * `values` writes each column's count above it (for a few columns: the
 * answer position's letters, where a reader compares counts, not shapes).
 */
export function Columns({
  label,
  columns,
  axis,
  values = false,
}: {
  label: string;
  columns: { label: string; value: number; expected?: number; title: string }[];
  axis?: string;
  values?: boolean;
}) {
  const width = 320;
  const height = 120;
  const max = Math.max(1, ...columns.map((c) => Math.max(c.value, c.expected ?? 0)));
  const slot = width / Math.max(1, columns.length);
  const widest = Math.max(0, ...columns.map((c) => c.label.length)) * LABEL_CHAR + LABEL_GAP;
  const every = Math.max(1, Math.ceil(widest / slot));
  const top = values ? 14 : 0;
  const bottom = top + height + 18 + (axis ? 16 : 0);
  return (
    <svg className="chart" viewBox={`0 ${-top} ${width} ${bottom}`} role="img" aria-label={label}>
      {columns.map((column, i) => {
        const h = (column.value / max) * height;
        const x = i * slot;
        return (
          <g key={column.label}>
            <rect x={x + slot * 0.15} y={height - h} width={slot * 0.7} height={h} className="bar">
              <title>{column.title}</title>
            </rect>
            {column.expected !== undefined && (
              <line
                x1={x + slot * 0.05}
                x2={x + slot * 0.95}
                y1={height - (column.expected / max) * height}
                y2={height - (column.expected / max) * height}
                className="expected"
              />
            )}
            {values && (
              <text
                x={x + slot / 2}
                y={height - Math.max(h, ((column.expected ?? 0) / max) * height) - 3}
                className="axis column-value"
                textAnchor="middle"
              >
                {column.value.toLocaleString('en-US')}
              </text>
            )}
            {i % every === 0 && (
              <text x={x + slot / 2} y={height + 14} className="axis" textAnchor="middle">
                {column.label}
              </text>
            )}
          </g>
        );
      })}
      {axis && (
        <text x={width / 2} y={bottom - top - 2} className="axis axis-title" textAnchor="middle">
          {axis}
        </text>
      )}
    </svg>
  );
}

/** A histogram of log-2 bins: `from`..`to` per bin. */
export function Histogram({
  label,
  bins,
  unit,
}: {
  label: string;
  bins: { from: number; to: number; count: number }[];
  unit: string;
}) {
  return (
    <Columns
      label={label}
      axis={`${unit} (log scale: each bin doubles)`}
      columns={bins.map((bin) => ({
        label: short(bin.from),
        value: bin.count,
        title: `${bin.from}–${bin.to} ${unit}: ${bin.count}`,
      }))}
    />
  );
}

const short = (n: number): string =>
  n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
