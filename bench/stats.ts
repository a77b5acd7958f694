/** Small helpers to report benchmark figures the same way everywhere. */

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] ?? NaN;
}

export function formatRow(cells: (string | number)[], widths: number[]): string {
  return cells
    .map((cell, i) => {
      const text =
        typeof cell === 'number'
          ? cell.toLocaleString('en-US', { maximumFractionDigits: 1 })
          : cell;
      return i === 0 ? text.padEnd(widths[i] ?? 10) : text.padStart(widths[i] ?? 10);
    })
    .join('  ');
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
