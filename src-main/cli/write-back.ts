import { AppError } from '../../src-shared/errors.ts';
import { RESULT_KEYS, type Sample } from '../../src-shared/schemas/sample.ts';
import {
  formatFromPath,
  readLayout,
  writeRowsLike,
  type FileFormat,
  type SourcedRow,
} from '../files/index.ts';
import type { ResultSample } from '../service/runs/contract.ts';
import type { RowMapping, SampleRow } from '../engine/rows/index.ts';

/**
 * `--write-back`: the source's own rows, in its schema, with each repair
 * written into the field it came from, streamed to OUT in the format of its
 * extension (the input's by default). A row the fix left alone, or one that
 * could not be read as a sample, goes out as it came in (byte for byte in
 * the input's format); a repair that cannot be written back without guessing
 * leaves its row as it was and is reported.
 */
export interface WriteBack {
  write(item: Extract<SampleRow, { sample: Sample }>, output: ResultSample): Promise<void>;
  skipped(item: Extract<SampleRow, { error: string }>): Promise<void>;
  /** Waits for the file; `kept` lists the rows whose repair could not be written back. */
  close(): Promise<{ kept: string[]; lost: number }>;
  /** The run failed: the file is not written, and its half-written temporary file removed. */
  discard(): Promise<void>;
}

/**
 * A one-slot hand-off between the run (which pushes) and the file writer
 * (which pulls). `fail`: the writer's next pull throws `error` (once; the
 * pulls after it find the end), so that it stops and removes what it wrote.
 */
function channel<T>(): {
  push(value: T): Promise<void>;
  end(): void;
  fail(error: Error): void;
  items: AsyncIterable<T>;
} {
  let waiting:
    { resolve: (result: IteratorResult<T>) => void; reject: (error: Error) => void } | undefined;
  let queued: { value: T; taken: () => void }[] = [];
  let ended = false;
  let failure: Error | undefined;
  return {
    push: (value) =>
      new Promise<void>((taken) => {
        if (waiting) {
          const { resolve } = waiting;
          waiting = undefined;
          resolve({ value, done: false });
          taken();
        } else queued.push({ value, taken });
      }),
    end: () => {
      ended = true;
      waiting?.resolve({ value: undefined, done: true });
      waiting = undefined;
    },
    fail: (error) => {
      ended = true;
      // What the run handed over and the writer never took is dropped; its pushers go on.
      for (const { taken } of queued) taken();
      queued = [];
      if (waiting) waiting.reject(error);
      else failure = error;
      waiting = undefined;
    },
    items: {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<T>>((resolve, reject) => {
            const first = queued[0];
            if (first) {
              queued = queued.slice(1);
              first.taken();
              resolve({ value: first.value, done: false });
            } else if (failure) {
              reject(failure);
              failure = undefined;
            } else if (ended) resolve({ value: undefined, done: true });
            else waiting = { resolve, reject };
          }),
      }),
    },
  };
}

const changesOf = (output: ResultSample): unknown[] =>
  (output.fix as { changes?: unknown[] } | undefined)?.changes ?? [];

const withoutResults = (sample: ResultSample): Sample =>
  Object.fromEntries(
    Object.entries(sample).filter(([key]) => !(RESULT_KEYS as readonly string[]).includes(key)),
  ) as Sample;

export function openWriteBack(input: string, out: string, mapping: RowMapping): WriteBack {
  const inputFormat = formatFromPath(input) as FileFormat;
  const format = formatFromPath(out) ?? inputFormat;
  const rows = channel<SourcedRow>();
  const kept: string[] = [];
  let lost = 0;
  let failure: Error | undefined;
  const written = readLayout(input, inputFormat)
    .then((layout) => writeRowsLike(out, format, rows.items, layout))
    .catch(async (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      // Drain what the run still pushes, so it is not left waiting.
      const pending = rows.items[Symbol.asyncIterator]();
      while (!(await pending.next()).done);
    });
  const push = async (row: SourcedRow): Promise<void> => {
    if (failure) throw failure;
    await rows.push(row);
  };
  /** Read along every path: a tree's paths, until the last of them is in. */
  let tree: { item: Extract<SampleRow, { sample: Sample }>; output: ResultSample }[] = [];
  const writeTree = async (): Promise<void> => {
    const [first] = tree;
    if (!first || !mapping.tree) return;
    const parts = tree.map(({ item, output }, i) => ({
      route: item.path?.route ?? [],
      sample: changesOf(output).length > 0 ? withoutResults(output) : null,
      label: `path ${i + 1} of ${item.path?.of ?? tree.length}`,
    }));
    tree = [];
    const { row, problems } = mapping.tree.toRow(first.item.original, parts);
    problems.forEach((problem, i) => {
      if (problem)
        kept.push(`row ${first.item.row}, ${parts[i]?.label}: ${problem} (left as it was)`);
    });
    const changed = row !== first.item.original;
    await push({ value: row, raw: first.item.raw, changed });
  };
  return {
    async write(item, output) {
      if (item.path) {
        tree.push({ item, output });
        if (tree.length >= item.path.of) await writeTree();
        return;
      }
      const changes = changesOf(output);
      if (changes.length === 0) {
        await push({ value: item.original, raw: item.raw, changed: false });
        return;
      }
      try {
        const value = mapping.toRow(withoutResults(output), item.original);
        await push({ value, raw: item.raw, changed: true });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        kept.push(`row ${item.row}: ${error.message} (left as it was)`);
        await push({ value: item.original, raw: item.raw, changed: false });
      }
    },
    async skipped(item) {
      // A row that read but did not map goes out as it came in, in any format; one that did not
      // read at all only where its source text can be written (the input's format).
      if (item.original) await push({ value: item.original, raw: item.raw, changed: false });
      else if (item.raw !== undefined && format === inputFormat && format !== 'json') {
        await push({ value: {}, raw: item.raw, changed: false });
      } else lost++;
    },
    async discard() {
      rows.fail(new AppError('cancelled', 'the run failed before its output was complete'));
      await written; // the writer has removed its temporary file (its failure is this one)
    },
    async close() {
      await writeTree(); // the paths read of a tree cut short by an interrupted run
      rows.end();
      await written;
      if (failure) throw failure;
      return { kept, lost };
    },
  };
}
