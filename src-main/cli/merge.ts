import { statSync } from 'node:fs';
import type { SingleBar } from 'cli-progress';
import { fileMatcher } from './contamination-flags.ts';
import { formatFromPath } from '../files/index.ts';
import { filePassPool, prestartFilePass } from '../service/runs/pool/pooled.ts';
import { AppError } from '../../src-shared/errors.ts';
import { FieldMapping, OasstPaths } from '../../src-shared/schemas/mapping.ts';
import type { Settings } from '../../src-shared/schemas/settings.ts';
import { tokenCostMicro } from '../service/billing/money.ts';
import type { ShapeId } from '../engine/shapes/index.ts';
import type { ModelUsage } from '../engine/usage.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { addCounts } from '../service/dataset-checks/core.ts';
import { FileChecks } from '../service/dataset-checks/file.ts';
import { openDatabase } from '../store/db.ts';
import { parseCommandArgs } from './args.ts';
import { MERGE_OPTIONS } from './file-ops-options.ts';
import { printReport } from './dataset-report.ts';
import { runProgressBar, ScanProgress } from './progress-bars.ts';
import { mergeRows, type MergedRow } from './merge-rows.ts';
import { PositionedTally } from '../service/dataset-checks/positioned-tally.ts';
import { TaskRunner } from '../service/file-pass/parallel-pass.ts';
import { orderedMap } from '../service/file-pass/ordered.ts';
import { OutputBuffers } from '../service/file-pass/output-buffers.ts';
import type { MergeRowsResult, MergeRowsTask } from '../service/file-pass/task-types.ts';
import { openJsonlSink } from './output.ts';
import { PartReader } from './part-reader.ts';
import { checkPartSet } from './part-set.ts';
import { defaultDataDir, packageVersion } from './paths.ts';
import { summaryLines } from './run-summary.ts';
import { inputFingerprint, type PartHeader, type PartTrailer } from './shard.ts';
import { openShardScans, scanHeader } from './shard-scan.ts';
import { Interruption } from './interruption.ts';
import { checkOutputTargets } from './output-targets.ts';

export const MERGE_USAGE = `usage: svc merge OUT PART... [--input FILE] [--report PATH]
  Merges the parts of svc audit|fix|refine FILE --shard I/N (all N of them, in any order) into
  OUT (- for stdout): the output of one run over the whole file, byte for byte. The dataset
  checks (duplicates, label conflicts) run here, on the whole file, with this data folder's
  dedup.threshold (a JSON Lines file's scan taken from each PART.scan the shards left beside
  their parts); the summary adds up the shards' counts and usage.
  --input FILE      the input file, where it is not at the path the shards read it from (it must
                    be the same file: its size and SHA-256 are checked)
  --report PATH     write the dataset report, as svc audit|fix|refine FILE --report does`;

const invalid = (message: string): AppError => new AppError('invalid_request', message);

/**
 * How much of each part is read at once: 1 MiB, where 64 KiB reads were a
 * round trip to the file system's threads every ~65 rows (the merge of
 * 100,000 rows from 4 parts: 1.25-1.29 s, against 1.32-1.36 s with 64 KiB,
 * three runs each); less when there are many parts, so that up to 1,024
 * parts hold at most 64 MiB (64 KiB each beyond, as before).
 */
const partBufferBytes = (parts: number): number =>
  Math.max(1 << 16, Math.min(1 << 20, Math.floor((64 << 20) / parts)));

async function openParts(paths: readonly string[]): Promise<PartReader[]> {
  const parts: PartReader[] = [];
  const bufferBytes = partBufferBytes(paths.length);
  try {
    for (const path of paths) parts.push(await PartReader.open(path, bufferBytes));
  } catch (error) {
    for (const part of parts) part.close();
    throw error;
  }
  return parts;
}

/**
 * The input the shards read: here at `path`, and the same file (size and
 * SHA-256). `checked` fails once it is known to be another. Its size is
 * compared at once (`sameSize`); where it is the shards', the digest is made
 * while the merge reads the file, and awaited before the output is kept.
 */
function checkInput(
  header: PartHeader,
  path: string,
  given: boolean,
): { sameSize: boolean; checked: Promise<void> } {
  const hint = given ? '' : ' (give its path here with --input FILE)';
  const unreadable = (error: unknown): AppError => invalid(`${(error as Error).message}${hint}`);
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch (error) {
    const message = `cannot read ${path}: ${(error as Error).message}`;
    return { sameSize: false, checked: Promise.reject(unreadable(new Error(message))) };
  }
  // Another size is told with its digest too, as another file of the same size is.
  const checked = inputFingerprint(path).then(
    (print) => {
      if (print.bytes !== header.input.bytes || print.sha256 !== header.input.sha256) {
        throw invalid(
          `${path} is not the file the shards read (${header.input.bytes} bytes, SHA-256 ` +
            `${header.input.sha256.slice(0, 12)}...; this one has ${print.bytes} bytes, ` +
            `${print.sha256.slice(0, 12)}...): it changed since, or --input names another file`,
        );
      }
    },
    (error: unknown) => Promise.reject(unreadable(error)),
  );
  checked.catch(() => undefined); // awaited before the output is kept, or on the way out
  return { sameSize: bytes === header.input.bytes, checked };
}

/**
 * What the run cost at the rates in force, as one run over the whole file
 * would say it: its usage priced once. Each shard rounded its own cost up
 * to the micro-USD, and their sum came out a micro-USD or so over a single
 * run's ($0.541704 against $0.541703). Shards that ran at other rates than
 * these (another machine's settings) keep the sum of what each said.
 */
function mergedCostMicro(trailers: readonly PartTrailer[], rates: Settings['rates']): number {
  const priced = (usage: Record<string, ModelUsage>): number => tokenCostMicro(usage, rates);
  return trailers.every((t) => t.cost_micro === priced(t.usage))
    ? priced(addedUsage(trailers))
    : trailers.reduce((sum, t) => sum + t.cost_micro, 0);
}

/** The shards' usage, model by model. */
function addedUsage(trailers: readonly PartTrailer[]): Record<string, ModelUsage> {
  const total: Record<string, ModelUsage> = {};
  for (const { usage } of trailers) {
    for (const [model, used] of Object.entries(usage)) {
      const entry = (total[model] ??= { input_tokens: 0, output_tokens: 0, passes: 0 });
      entry.input_tokens += used.input_tokens;
      entry.output_tokens += used.output_tokens;
      entry.passes += used.passes;
    }
  }
  return total;
}

/**
 * The languages the shards identified (their trailers' `languages`), once
 * every part is read: `resolve` then. A merge that fails first never
 * resolves it, and the statistics waiting for it do no more work (a pending
 * promise keeps no process alive). Undefined when a part's header does not
 * promise them (an older part): the merge identifies the sample itself.
 */
function shardLanguages(
  parts: readonly PartReader[],
): { promise: Promise<ReadonlyMap<number, string>>; resolve(): void } | undefined {
  if (!parts.every((part) => part.header.language_labels)) return undefined;
  let settle!: (labels: ReadonlyMap<number, string>) => void;
  const promise = new Promise<ReadonlyMap<number, string>>((done) => (settle = done));
  return {
    promise,
    resolve: () => {
      const labels = new Map<number, string>();
      for (const part of parts) {
        for (const [position, language] of part.trailer?.languages ?? []) {
          labels.set(position, language);
        }
      }
      settle(labels);
    },
  };
}

/** Where the merge's dataset checks' scan came from (see shard-scan.ts). */
function scanLine(slices: number, taken: number): string {
  return taken === slices
    ? `the dataset checks' scan came with the parts (${slices} slices)`
    : `the dataset checks' scan: ${taken} of ${slices} slices came with the parts, the rest scanned here`;
}

/** Rows of the merge handed to a worker at once. */
const MERGE_BATCH = 500;

/**
 * The parts' rows in position order, in batches, each with the position of
 * its first: a position in two parts or in none is refused here, in words.
 */
async function* mergedBatches(
  parts: readonly PartReader[],
  rowsOf: Map<PartReader, number>,
  getPosition: () => number,
  setPosition: (position: number) => void,
): AsyncGenerator<{ first: number; rows: MergedRow[] }> {
  /** The part of the row merged last: a position given twice comes right after its first. */
  let previous: PartReader | undefined;
  for await (const rows of mergeRows(parts, MERGE_BATCH)) {
    const first = getPosition();
    for (const { row, part } of rows) {
      const position = getPosition();
      if (row.position !== position) {
        const other =
          row.position === position - 1 && previous && previous !== part
            ? previous.path
            : 'another part';
        throw invalid(
          row.position < position
            ? `output row ${row.position} is in two parts (${part.path} and ${other})`
            : `output row ${position} is in no part (the next is ${row.position}, in ${part.path})`,
        );
      }
      rowsOf.set(part, (rowsOf.get(part) ?? 0) + 1);
      setPosition(position + 1);
      previous = part;
    }
    yield { first, rows };
  }
}

/**
 * A batch's rows as the workers read them: each part's rows in the batch are
 * lines one after another in it (the parts hold their rows in position
 * order), so each part gives one byte range, and each row the part it is from.
 */
function partRanges(rows: readonly MergedRow[]): Pick<MergeRowsTask, 'parts' | 'from'> {
  const parts: MergeRowsTask['parts'] = [];
  const index = new Map<PartReader, number>();
  const from: number[] = [];
  for (const { row, part } of rows) {
    let at = index.get(part);
    const range = at === undefined ? undefined : parts[at];
    if (range) range.length = row.end - range.start;
    else {
      at = parts.length;
      index.set(part, at);
      parts.push({
        path: part.path,
        start: row.start,
        length: row.end - row.start,
        shard: { shard: part.header.shard, of: part.header.of },
      });
    }
    from.push(at as number);
  }
  return { parts, from };
}

/**
 * `svc merge OUT PART...`: the parts of a sharded run as the output of one run over the file. A
 * SIGINT or SIGTERM stops it, its half-written output removed, with one message and exit code.
 */
export function mergeCommand(argv: string[]): Promise<void> {
  return Interruption.around((interruption) => merge(argv, interruption.signal));
}

async function merge(argv: string[], signal: AbortSignal): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, MERGE_OPTIONS, true);
  const [out, ...paths] = positionals;
  if (out === undefined || paths.length === 0) {
    throw invalid(`expected OUT and the parts to merge\n\n${MERGE_USAGE}`);
  }
  const started = performance.now();
  const opened = await openParts(paths);
  let parts: PartReader[];
  try {
    parts = checkPartSet(opened);
  } catch (error) {
    for (const part of opened) part.close();
    throw error;
  }
  const header = (parts[0] as PartReader).header;
  const operation = header.operation;
  const input = values.input ?? header.input.path;
  try {
    checkOutputTargets(
      [
        ...parts.map((part, i) => ({ what: `part ${i + 1} of the merge`, path: part.path })),
        { what: 'the input the shards read', path: input },
      ],
      [
        { what: 'OUT', path: out },
        { what: '--report', path: values.report },
      ],
    );
  } catch (error) {
    for (const part of parts) part.close();
    throw error;
  }
  // JSON Lines are merged on the engine's workers (the scan's rest, the rows): they start now,
  // while this thread opens the database and reads the parts' scans.
  if (formatFromPath(input) === 'jsonl') prestartFilePass(filePassPool(), { fileTasks: true });

  const dataDir = values['data-dir'] ?? process.env.SVC_DATA_DIR ?? defaultDataDir();
  const db = openDatabase(dataDir);
  const sink = openJsonlSink(out === '-' ? undefined : out);
  let rates: Settings['rates'] | undefined;
  const recounted: Record<string, number> = {};
  let position = 0;
  let checks: FileChecks;
  let scanNote: string | undefined;
  // The scan (most of it the parts' shares, read back), then the rows: a bar each. The scan of
  // another format than JSON Lines reads its rows one at a time and counts them alone.
  const scanBar = new ScanProgress(formatFromPath(input) === 'jsonl');
  let bar: SingleBar | undefined;
  // Its SHA-256 is made while the merge reads it, into a file kept only once it agrees. Another
  // size is told before anything is read; stdout, which keeps what it is sent, waits for it.
  const { sameSize, checked: inputChecked } = checkInput(header, input, values.input !== undefined);
  try {
    if (out === '-' || !sameSize) await inputChecked;
    const settings = createServiceContext(db, dataDir, packageVersion()).settings();
    rates = settings.rates;
    // The dataset checks of the whole file, read exactly as the shards (and a single run) read it.
    const read = {
      shape: header.read.shape as ShapeId | undefined,
      mapping:
        header.read.mapping === undefined ? undefined : FieldMapping.parse(header.read.mapping),
      paths: header.read.paths === undefined ? undefined : OasstPaths.parse(header.read.paths),
      signal,
    };
    const contamination = header.contamination ?? {
      benchmarks: settings.contamination.benchmarks,
      against: [],
    };
    // JSON Lines are scanned in slices on the engine's workers, as a single run scans them.
    const pool = formatFromPath(input) === 'jsonl' ? filePassPool() : undefined;
    // The shards identified the languages of their rows of the run's language sample: their
    // trailers, read once the rows are, bring them (see ShardLanguageSample).
    const languages = shardLanguages(parts);
    // The shards' shares of the scan, where they came with the parts (see shard-scan.ts).
    let scans: ReturnType<typeof openShardScans> | undefined;
    const parallel = pool
      ? await (
          await import('./parallel-scan.ts')
        )
          .scanFileInParallel(pool, input, read, settings.dedup.threshold, contamination, {
            signal,
            onScanned: (share, samples) => scanBar.update(share, samples),
            prepare: (mapping, pass) => {
              const expected = { index: 0, of: header.of };
              scans = openShardScans(
                parts.map((part) => ({ path: part.path, shard: part.header.shard })),
                scanHeader(expected, settings.dedup.threshold, mapping, pass),
              );
              return scans.prepared;
            },
            languages: languages?.promise,
          })
          .finally(() => scans?.close())
      : undefined;
    if (parallel) scanNote = scanLine(parallel.file.slices.length, scans?.taken() ?? 0);
    checks =
      parallel?.checks ??
      (await FileChecks.scan(
        input,
        read,
        settings.dedup.threshold,
        await fileMatcher(contamination, read),
        (_row, samples) => scanBar.update(0, samples),
      ));
    scanBar.done(checks.samples);
    // This thread orders the parts' lines by position; the workers check each row, copy those
    // the dataset checks found nothing in and give the others their verdicts, a batch at a time.
    const rowsOf = new Map<PartReader, number>();
    const found = checks.found;
    // The shards counted their rows as written; the workers send what the checks change.
    const tally = new PositionedTally();
    const runner = new TaskRunner(filePassPool(), signal);
    const buffers = new OutputBuffers();
    const { issuesOfRange } = await import('../service/file-pass/parallel-pass.ts');
    const rowsStarted = performance.now();
    await orderedMap(
      mergedBatches(
        parts,
        rowsOf,
        () => position,
        (next) => (position = next),
      ),
      runner.window,
      async (batch) => {
        const into = buffers.take();
        const result = await runner.run<MergeRowsResult>({
          kind: 'merge-rows',
          operation,
          ...partRanges(batch.rows),
          first: batch.first,
          clean: header.clean,
          issues: issuesOfRange(found, batch.first, batch.rows.length),
          into,
        });
        return { result, into };
      },
      async ({ result, into }, batch) => {
        if (result.error) {
          const { row, part } = batch.rows[result.error.index] as MergedRow;
          throw part.bad(row.lineNumber, result.error.what);
        }
        tally.absorb(result.changes);
        addCounts(recounted, result.recount);
        const merged = batch.first + batch.rows.length;
        const rate = (merged / ((performance.now() - rowsStarted) / 1000)).toFixed(0);
        bar ??= runProgressBar(checks.samples, { skipped: false });
        bar.update(merged, { rate });
        if (result.output) {
          buffers.give(into);
          await sink.writeBytes(result.output);
        } else {
          await sink.writeBytes(new Uint8Array(into, 0, result.written), () => buffers.give(into));
        }
      },
    );
    if (position !== checks.samples) {
      throw invalid(
        `the parts hold ${position} output rows, the input has ${checks.samples} samples: ` +
          'were they written from this file with the same read flags?',
      );
    }
    for (const part of parts) {
      if (part.trailer?.samples !== (rowsOf.get(part) ?? 0)) {
        throw invalid(
          `${part.name} holds ${rowsOf.get(part) ?? 0} rows, its trailer says ${part.trailer?.samples}`,
        );
      }
      tally.absorb(part.trailer.tally);
      addCounts(recounted, part.trailer.recount);
    }
    languages?.resolve();
    checks.absorb(tally.parts());
    await inputChecked;
    // Told to stop while the last rows were written: the output is not put in place.
    signal.throwIfAborted();
    // As one run of the file ends (file-ops.ts): rows, but not one sample among them.
    const skipped = parts.reduce((sum, part) => sum + (part.trailer?.skipped ?? 0), 0);
    if (position === 0 && skipped > 0) {
      throw new AppError(
        'invalid_request',
        `none of the ${skipped} rows of the parts' input could be read as samples, so nothing ` +
          "was written: check the shards' --shape, --task-type and --map",
      );
    }
    if (position === 0 && skipped === 0) {
      throw new AppError('invalid_request', "the parts' input has no rows, so nothing was written");
    }
    await sink.close();
  } catch (error) {
    await sink.discard();
    // Another file than the shards read explains whatever failed on the way.
    await inputChecked;
    throw error;
  } finally {
    scanBar.stop();
    bar?.stop();
    for (const part of parts) part.close();
    db.close();
  }

  const trailers = parts.map((part) => part.trailer as PartTrailer);
  // The engine's counts, as the shards counted them, with those the dataset checks change
  // recounted over the whole (the names keep the order a single run prints them in).
  const counts: Record<string, number> = {};
  for (const trailer of trailers) addCounts(counts, trailer.counts);
  Object.assign(counts, recounted);
  const runs = trailers.map((t) => t.run_id);
  const summary = summaryLines({
    operation,
    counts,
    skipped: trailers.reduce((sum, t) => sum + t.skipped, 0),
    usage: addedUsage(trailers),
    costMicro: mergedCostMicro(trailers, rates),
    charged:
      `your own runs: ${runs.length} shards, ` +
      (runs.length <= 8 ? runs.join(', ') : `${runs[0]} ... ${runs.at(-1)}`) +
      ', each recorded where it ran',
    samples: position,
    seconds: (performance.now() - started) / 1000,
  });
  for (const line of summary) console.error(line);
  if (scanNote) console.error(scanNote);
  if (out !== '-') console.error(`wrote ${out}`);
  await printReport(await checks.report(), values.report);
}
