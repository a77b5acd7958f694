/** Spend per day as SVG bars (no chart library needed for thirty rectangles). */
export function SpendChart({
  days,
  label = 'Spend per day',
}: {
  days: { day: string; charged_usd: number }[];
  label?: string;
}) {
  const highest = Math.max(0, ...days.map((d) => d.charged_usd));
  // The bars' scale never divides by zero; the axis says the real highest, or that none was spent.
  const max = Math.max(0.01, highest);
  const width = 300;
  const height = 80;
  const bar = days.length ? width / days.length : width;
  return (
    <svg
      className="spend-chart"
      viewBox={`0 0 ${width} ${height + 14}`}
      role="img"
      aria-label={label}
    >
      {days.map((d, i) => {
        const h = (d.charged_usd / max) * height;
        return (
          <rect
            key={d.day}
            x={i * bar + 1}
            y={height - h}
            width={Math.max(1, bar - 2)}
            height={h}
            className="bar"
          >
            <title>{`${d.day}: $${d.charged_usd.toFixed(2)}`}</title>
          </rect>
        );
      })}
      <text x={0} y={height + 12} className="axis">
        {days[0]?.day ?? ''}
      </text>
      <text x={width} y={height + 12} textAnchor="end" className="axis">
        {days.at(-1)?.day ?? ''} · {highest > 0 ? `max $${highest.toFixed(2)}` : 'nothing spent'}
      </text>
    </svg>
  );
}
