import { readFileSync } from 'node:fs';
import { formatRow } from './stats.ts';

/**
 * The precision part's counts as data: per file, the samples, those failing
 * any check and those only warning, and per check the samples it fails and
 * those it only warns. Written as JSON by one run and read back by a later one,
 * so a change of judgment is shown as a table before and after.
 */

export interface CheckCount {
  fail: number;
  warn: number;
}

export interface FileSummary {
  samples: number;
  failing: number;
  warning: number;
  checks: Record<string, CheckCount>;
}

export type Summaries = Record<string, FileSummary>;

export const readSummary = (path: string): Summaries =>
  JSON.parse(readFileSync(path, 'utf8')) as Summaries;

const rate = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(2)}%`;

const pair = (before: number | undefined, after: number): string =>
  before === undefined || before === after ? String(after) : `${before} -> ${after}`;

/**
 * One table for every file: rows failing and only warning (with their share),
 * then per check its fails and warns; with a baseline each cell reads
 * "before -> after" where it moved.
 */
export function printComparison(before: Summaries | undefined, after: Summaries): void {
  console.log(
    `\n### precision per file and check${before ? ' (before -> after where it moved)' : ''}`,
  );
  const widths = [52, 18, 18];
  console.log(formatRow(['file / check', 'fail', 'warn'], widths));
  for (const [file, now] of Object.entries(after)) {
    const then = before?.[file];
    const share = (key: 'failing' | 'warning'): string =>
      then && then[key] !== now[key]
        ? `${rate(then[key], then.samples)} -> ${rate(now[key], now.samples)}`
        : rate(now[key], now.samples);
    console.log(
      formatRow([`${file} (${now.samples})`, share('failing'), share('warning')], widths),
    );
    const names = new Set([...Object.keys(then?.checks ?? {}), ...Object.keys(now.checks)]);
    for (const name of [...names].sort()) {
      const was = then?.checks[name];
      const is = now.checks[name] ?? { fail: 0, warn: 0 };
      const base = then ? (was ?? { fail: 0, warn: 0 }) : undefined;
      console.log(
        formatRow([`  ${name}`, pair(base?.fail, is.fail), pair(base?.warn, is.warn)], widths),
      );
    }
  }
}
