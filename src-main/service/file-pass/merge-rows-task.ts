import { CONTAMINATION_CHECK } from '../../../src-shared/checks.ts';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import {
  addCounts,
  cleanVerdicts,
  datasetChecksOnly,
  recountOf,
  verdictsAt,
  withDatasetVerdicts,
  type DatasetIssues,
} from '../dataset-checks/core.ts';
import { PositionedTally } from '../dataset-checks/positioned-tally.ts';
import type { ResultSample } from '../runs/contract.ts';
import { readSlice } from './line-slices.ts';
import { checkPartRow, splitPartRow } from './part-rows.ts';
import type { MergeRowsResult, MergeRowsTask, SliceIssues } from './task-types.ts';

/**
 * A batch of `svc merge`'s rows on an engine worker. A shard writes each row
 * with the verdicts of a row in which the dataset checks find nothing (its
 * part header's `clean`), so a row they found nothing in goes to the output
 * as its sample's bytes, never decoded: parsing and writing every row again
 * was most of the merge's work on the workers. The few rows with findings
 * are parsed, given their verdicts, and what that changes in the tally and
 * the counts is sent back; the shards counted the rest.
 */

/** The dataset checks' issues of a task's rows, as `verdictsAt` reads them (by index). */
export const issuesOf = (issues: SliceIssues): DatasetIssues => ({
  duplicates: { issues: new Map(issues.duplicates) },
  contamination: { active: issues.active, issues: new Map(issues.contamination) },
});

const NEWLINE = Buffer.from('\n');
const encoder = new TextEncoder();

/** The lines of whole lines' bytes (`\n` or `\r\n` ends, as a part's reader cuts them). */
function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    let end = bytes.indexOf(0x0a, at);
    if (end < 0) end = bytes.length;
    lines.push(bytes.subarray(at, end > at && bytes[end - 1] === 0x0d ? end - 1 : end));
    at = end + 1;
  }
  return lines;
}

/** A row with its clean verdicts taken out again (they pass: `passed` stays the engine's). */
function withoutChecks(sample: ResultSample, names: readonly string[]): ResultSample {
  const strip = (block: AuditBlock): AuditBlock => {
    const checks = { ...block.checks };
    for (const name of names) Reflect.deleteProperty(checks, name);
    return { ...block, checks };
  };
  const out: ResultSample = { ...sample };
  if (out.audit) out.audit = strip(out.audit);
  if (out.reaudit) out.reaudit = strip(out.reaudit);
  return out;
}

export function mergeRows(task: MergeRowsTask): MergeRowsResult {
  const checked = issuesOf(task.issues);
  const clean = cleanVerdicts(task.clean.includes(CONTAMINATION_CHECK));
  // Whether a row with no findings gets exactly the verdicts the shards wrote: then it is copied.
  const copies =
    JSON.stringify(Object.keys(verdictsAt(checked, -1))) === JSON.stringify(task.clean) &&
    JSON.stringify(clean) === JSON.stringify(verdictsAt(checked, -1));
  const changes = new PositionedTally();
  const recount: Record<string, number> = {};
  const pieces: Uint8Array[] = [];
  let size = 0;
  const put = (bytes: Uint8Array): void => {
    pieces.push(bytes, NEWLINE);
    size += bytes.length + 1;
  };
  const failed = (index: number, what: string): MergeRowsResult => ({
    output: null,
    written: 0,
    changes: changes.entries(),
    recount,
    error: { index, what },
  });
  const lines = task.parts.map((part) => linesOf(readSlice(part.path, part)));
  const next = task.parts.map(() => 0);
  for (let i = 0; i < task.from.length; i++) {
    const from = task.from[i] as number;
    const { shard } = task.parts[from] as MergeRowsTask['parts'][number];
    const at = next[from] as number;
    next[from] = at + 1;
    const line = (lines[from] as Buffer[])[at] ?? Buffer.alloc(0);
    const cut = splitPartRow(line);
    let sample: ResultSample | undefined;
    if (!cut) {
      const row = checkPartRow(line.toString('utf8'), shard);
      if ('error' in row) return failed(i, row.error);
      sample = row.sample;
    } else if ((cut.source_row - 1) % shard.of !== shard.shard) {
      return failed(i, `source row ${cut.source_row} belongs to another shard`);
    }
    const found =
      checked.duplicates.issues.get(i) !== undefined ||
      (checked.contamination.active && checked.contamination.issues.get(i) !== undefined);
    if (cut && copies && !found) {
      put(line.subarray(cut.sampleStart, cut.sampleEnd));
      continue;
    }
    sample ??= JSON.parse(line.toString('utf8', cut?.sampleStart, cut?.sampleEnd)) as ResultSample;
    const verdicts = verdictsAt(checked, i);
    const merged = withDatasetVerdicts(task.operation, withoutChecks(sample, task.clean), verdicts);
    const position = task.first + i;
    changes.change(
      sample.audit ?? datasetChecksOnly(clean),
      merged.audit ?? datasetChecksOnly(verdicts),
      position,
    );
    addCounts(recount, recountOf(task.operation, merged));
    for (const [name, n] of Object.entries(recountOf(task.operation, sample))) {
      recount[name] = (recount[name] ?? 0) - n;
    }
    put(encoder.encode(JSON.stringify(merged)));
  }
  return { ...joined(pieces, size, task.into), changes: changes.entries(), recount };
}

/** The pieces one after another: in the shared buffer the task brought when they fit. */
function joined(
  pieces: readonly Uint8Array[],
  size: number,
  into: SharedArrayBuffer | null,
): Pick<MergeRowsResult, 'output' | 'written'> {
  const out = into && size <= into.byteLength ? new Uint8Array(into) : new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out.buffer === into ? { output: null, written: size } : { output: out, written: 0 };
}
