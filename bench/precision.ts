import { readFileSync, writeFileSync } from 'node:fs';
import type { Issue } from '../src-shared/schemas/blocks.ts';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { findDuplicates } from '../src-main/engine/dataset/duplicates.ts';
import { getAt } from '../src-main/engine/json-pointer.ts';
import {
  DETECTION_ROWS,
  headMapping,
  samplesOfRows,
  type RowResult,
  type SampleRow,
} from '../src-main/engine/rows/index.ts';
import { auditAll } from './builtin-audit.ts';
import { precisionFiles, type PrecisionFile } from './precision-files.ts';
import { printComparison, readSummary, type FileSummary } from './precision-summary.ts';
import { formatRow } from './stats.ts';

/**
 * Precision on real data: every JSON Lines file of ../shared/datasets read as
 * the app imports it (its shape detected from the first rows) and the
 * benchmark test sets of ../shared/benchmarks with the mapping a user would
 * give (precision-files.ts), each sample audited by the builtin engine and the
 * file checked for duplicates; per file and check, how many samples fail and
 * how many only warn, with a few of each (row, a clipped excerpt of the field,
 * the issue's message) for a person to judge whether the alarm is true.
 * BENCH_PRECISION_SAMPLES sets how many (default 3). Files no shape reads (the
 * ftfy cases, the Alpaca pairing) are named and skipped; without ../shared the
 * part says so and stops.
 *
 * BENCH_PRECISION_OUT=FILE writes the counts as JSON; BENCH_PRECISION_BASELINE=FILE
 * (such a JSON from an earlier commit) prints them before and after, per file and check.
 */

const SAMPLES = Number(process.env.BENCH_PRECISION_SAMPLES ?? 3);
const CLIP = 90;

interface Seen {
  row: number;
  excerpt: string;
  message: string;
}

interface CheckTally {
  fail: number;
  warn: number;
  failing: Seen[];
  warning: Seen[];
}

function readRows(path: string): RowResult[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((raw, i): RowResult[] => {
      if (raw.trim() === '') return [];
      try {
        return [{ row: i + 1, value: JSON.parse(raw) as Record<string, unknown>, raw }];
      } catch (error) {
        return [{ row: i + 1, error: String(error), raw }];
      }
    });
}

/** The field an issue points at (or the sample's first text), on one line and clipped. */
function excerptOf(sample: Sample, issue: Issue | undefined): string {
  const pointed = issue?.path ? getAt(sample, issue.path) : undefined;
  const text =
    typeof pointed === 'string'
      ? pointed
      : JSON.stringify(
          sample.task_type === 'text'
            ? sample.text
            : sample.task_type === 'multiple_choice'
              ? sample.context
              : sample.task_type === 'question_answer'
                ? sample.question
                : sample.messages.at(-1)?.content,
        );
  const flat = text.replace(/\s+/g, ' ').trim();
  const from = issue?.span ? Math.max(0, issue.span[0] - 30) : 0;
  const clipped = flat.slice(from, from + CLIP);
  return `${from > 0 ? '…' : ''}${clipped}${from + CLIP < flat.length ? '…' : ''}`;
}

function tally(checks: Map<string, CheckTally>, check: string, seen: Seen, failed: boolean): void {
  const entry = checks.get(check) ?? { fail: 0, warn: 0, failing: [], warning: [] };
  if (failed) {
    entry.fail++;
    if (entry.failing.length < SAMPLES) entry.failing.push(seen);
  } else {
    entry.warn++;
    if (entry.warning.length < SAMPLES) entry.warning.push(seen);
  }
  checks.set(check, entry);
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;

async function precisionOf({
  label: file,
  path,
  mapping: given,
}: PrecisionFile): Promise<FileSummary | undefined> {
  const results = readRows(path);
  let rows: SampleRow[];
  let shape: string;
  try {
    const mapping = headMapping(file, results.slice(0, DETECTION_ROWS), {
      mapping: given,
    });
    if (!mapping) return undefined;
    shape = mapping.shape;
    rows = samplesOfRows(mapping, results);
  } catch (error) {
    console.log(`\n${file}: skipped, ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const read = rows.flatMap((r) => ('sample' in r ? [r] : []));
  const samples = read.map((r) => r.sample);
  const blocks = await auditAll(samples);
  const duplicates = await findDuplicates(samples);
  const checks = new Map<string, CheckTally>();
  let failing = 0;
  let warning = 0;
  blocks.forEach((block, i) => {
    const sample = samples[i] as Sample;
    const row = read[i]?.row ?? 0;
    const verdicts = Object.entries(block.checks);
    const dupes = duplicates.issues.get(i);
    if (dupes) {
      verdicts.push([
        'duplicates',
        { passed: !dupes.some((d) => d.severity !== 'warning'), score: 0, issues: dupes },
      ]);
    }
    let rowFails = false;
    let rowWarns = false;
    for (const [check, verdict] of verdicts) {
      if (verdict.issues.length === 0 && verdict.passed !== false) continue;
      const failed = verdict.passed === false;
      const issue = verdict.issues.find((x) => (x.severity !== 'warning') === failed);
      const shown = issue ?? verdict.issues[0];
      tally(
        checks,
        check,
        { row, excerpt: excerptOf(sample, shown), message: shown?.message ?? '' },
        failed,
      );
      rowFails ||= failed;
      rowWarns ||= !failed;
    }
    if (rowFails) failing++;
    else if (rowWarns) warning++;
  });
  const siblings = duplicates.templated?.rows ?? 0;
  const templated =
    siblings > 0 ? `; ${siblings} rows are template siblings (templated_rows, none fails)` : '';
  console.log(
    `\n${file} (${shape}): ${samples.length} samples, ${failing} failing ` +
      `(${percent(failing, samples.length)}), ${warning} only warning ` +
      `(${percent(warning, samples.length)})${templated}`,
  );
  const summary: FileSummary = {
    samples: samples.length,
    failing,
    warning,
    checks: Object.fromEntries(
      [...checks].map(([name, t]) => [name, { fail: t.fail, warn: t.warn }]),
    ),
  };
  if (checks.size === 0) return summary;
  const widths = [22, 8, 8, 8, 8];
  console.log(formatRow(['  check', 'fail', 'rate', 'warn', 'rate'], widths));
  for (const [check, t] of [...checks].sort((a, b) => b[1].fail - a[1].fail)) {
    console.log(
      formatRow(
        [
          `  ${check}`,
          t.fail,
          percent(t.fail, samples.length),
          t.warn,
          percent(t.warn, samples.length),
        ],
        widths,
      ),
    );
    for (const [kind, list] of [
      ['fail', t.failing],
      ['warn', t.warning],
    ] as const) {
      for (const seen of list) {
        console.log(`      ${kind} row ${seen.row}: "${seen.excerpt}": ${seen.message}`);
      }
    }
  }
  return summary;
}

export async function benchPrecision(): Promise<void> {
  console.log('\n## precision: the engine over the real files of ../shared');
  const { files, absent } = precisionFiles();
  for (const reason of absent) console.log(reason);
  const summaries: Record<string, FileSummary> = {};
  for (const file of files) {
    const summary = await precisionOf(file);
    if (summary) summaries[file.label] = summary;
  }
  const out = process.env.BENCH_PRECISION_OUT;
  if (out) writeFileSync(out, `${JSON.stringify(summaries, null, 1)}\n`);
  const baseline = process.env.BENCH_PRECISION_BASELINE;
  printComparison(baseline ? readSummary(baseline) : undefined, summaries);
}
