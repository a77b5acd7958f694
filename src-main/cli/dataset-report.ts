import { writeFile } from 'node:fs/promises';
import type { DatasetReport } from '../../src-shared/schemas/report.ts';
import { AppError } from '../../src-shared/errors.ts';
import { fsProblem } from '../files/index.ts';

/**
 * The dataset checks' report of a run: its findings on stderr, one a line,
 * and with `--report PATH` the whole report there as JSON (pretty, it is for
 * people and scripts alike).
 */
export async function printReport(report: DatasetReport, path: string | undefined): Promise<void> {
  for (const finding of report.findings) console.error(`finding: ${finding.message}`);
  if (path === undefined) return;
  try {
    await writeFile(path, JSON.stringify(report, null, 2) + '\n');
  } catch (error) {
    // Checked before the run (output-targets.ts); what went since is said in words all the same.
    throw new AppError('service_error', `cannot write the report to ${path}: ${fsProblem(error)}`, {
      cause: error,
    });
  }
  console.error(`wrote the report to ${path}`);
}
