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
import { checkPartRow, splitPartRowAt } from './part-rows.ts';
import type { MergeRowsResult, MergeRowsTask, SliceIssues } from './task-types.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

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

const encoder = new TextEncoder();

/**
 * The batch's output, written as it is made: into the shared buffer the task
 * brought, and into memory of its own once that is full.
 */
class OutputBytes {
  #bytes: Uint8Array;
  readonly #shared: SharedArrayBuffer | null;
  size = 0;

  constructor(into: SharedArrayBuffer | null) {
    this.#shared = into;
    this.#bytes = into ? new Uint8Array(into) : new Uint8Array(1 << 16);
  }

  /** Room for `more` bytes after those written. */
  #reserve(more: number): void {
    if (this.size + more <= this.#bytes.length) return;
    const larger = new Uint8Array(Math.max(2 * this.#bytes.length, this.size + more));
    larger.set(this.#bytes.subarray(0, this.size));
    this.#bytes = larger;
  }

  /** `from[start, end)` and a line end. */
  copyLine(from: Buffer, start: number, end: number): void {
    this.#reserve(end - start + 1);
    from.copy(this.#bytes, this.size, start, end);
    this.size += end - start;
    this.#bytes[this.size++] = 0x0a;
  }

  /** `text` as UTF-8 and a line end. */
  textLine(text: string): void {
    this.#reserve(3 * text.length + 1); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.size += encoder.encodeInto(text, this.#bytes.subarray(this.size)).written;
    this.#bytes[this.size++] = 0x0a;
  }

  result(): Pick<MergeRowsResult, 'output' | 'written'> {
    return this.#bytes.buffer === this.#shared
      ? { output: null, written: this.size }
      : { output: this.#bytes.slice(0, this.size), written: 0 };
  }
}

/**
 * The lines of one part's bytes, in turn, by offsets (`\n` or `\r\n` ends,
 * as a part's reader cuts them); past the last, empty lines.
 */
class LineCursor {
  readonly bytes: Buffer;
  #at = 0;
  start = 0;
  end = 0;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  next(): void {
    const { bytes } = this;
    const at = Math.min(this.#at, bytes.length);
    let stop = bytes.indexOf(0x0a, at);
    if (stop < 0) stop = bytes.length;
    this.start = at;
    this.end = stop > at && bytes[stop - 1] === 0x0d ? stop - 1 : stop;
    this.#at = stop + 1;
  }
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
  const out = new OutputBytes(task.into);
  const failed = (index: number, what: string): MergeRowsResult => ({
    output: null,
    written: 0,
    changes: changes.entries(),
    recount,
    error: { index, what },
  });
  const lines = task.parts.map((part) => new LineCursor(readSlice(part.path, part)));
  for (let i = 0; i < task.from.length; i++) {
    const from = task.from[i] as number;
    const { shard } = task.parts[from] as MergeRowsTask['parts'][number];
    const line = lines[from] as LineCursor;
    line.next();
    const { bytes, start, end } = line;
    const cut = splitPartRowAt(bytes, start, end);
    let sample: ResultSample | undefined;
    if (!cut) {
      const row = checkPartRow(bytes.toString('utf8', start, end), shard);
      if ('error' in row) return failed(i, row.error);
      sample = row.sample;
    } else if ((cut.source_row - 1) % shard.of !== shard.shard) {
      return failed(i, `source row ${cut.source_row} belongs to another shard`);
    }
    const found =
      checked.duplicates.issues.get(i) !== undefined ||
      (checked.contamination.active && checked.contamination.issues.get(i) !== undefined);
    if (cut && copies && !found) {
      out.copyLine(bytes, cut.sampleStart, cut.sampleEnd);
      continue;
    }
    sample ??= parseJsonExact(
      bytes.toString('utf8', cut?.sampleStart ?? start, cut?.sampleEnd ?? end),
    ) as ResultSample;
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
    out.textLine(JSON.stringify(merged));
  }
  return { ...out.result(), changes: changes.entries(), recount };
}
