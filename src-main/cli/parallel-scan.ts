import { statSync } from 'node:fs';
import { headMapping, mappingSpecOf, type RowMappingSpec } from '../engine/rows/index.ts';
import { FileChecks } from '../service/dataset-checks/file.ts';
import {
  scanInParallel,
  TaskRunner,
  type ParallelFile,
  type PassContamination,
  type PreparedScan,
  type ScanOptions,
} from '../service/file-pass/parallel-pass.ts';
import type { EnginePool } from '../service/runs/pool/pool.ts';
import { readHead, type ReadSamplesOptions } from '../service/samples/read-samples.ts';
import { filePassContamination, type FileContamination } from './contamination-flags.ts';

/** What a CLI run's scan may be given besides its file (see `scanFileInParallel`). */
export interface FileScanOptions {
  signal: AbortSignal;
  /** The slices scanned elsewhere (svc merge: the shards'), given the mapping and contamination. */
  prepare?:
    ((mapping: RowMappingSpec, contamination: PassContamination) => PreparedScan) | undefined;
  languages?: ScanOptions['languages'];
  /** Told as the scan goes: the share of the file's bytes scanned (0..1) and the samples so far. */
  onScanned?: ((share: number, samples: number) => void) | undefined;
}

/**
 * A CLI run's scan on every core (service/file-pass): the mapping chosen on
 * the file's first rows here, as `readSamples` chooses it, then the dataset
 * checks over slices of the file on the engine's workers (`languages`: see
 * `scanInParallel`). Undefined for a file without rows (the row-at-a-time
 * pass says what it says of those).
 */
export async function scanFileInParallel(
  pool: EnginePool,
  input: string,
  read: ReadSamplesOptions,
  threshold: number,
  contamination: FileContamination,
  { signal, prepare, languages, onScanned }: FileScanOptions,
): Promise<{ runner: TaskRunner; file: ParallelFile; checks: FileChecks } | undefined> {
  const head = await readHead(input, 'jsonl');
  const mapping = headMapping(input, head, read);
  if (!mapping) return undefined;
  read.onMapping?.(mapping);
  const runner = new TaskRunner(pool, signal);
  const spec = mappingSpecOf(mapping);
  const pass = await filePassContamination(contamination, read);
  // The file was read (its head): its size is there to be taken.
  const bytes = onScanned ? statSync(input).size : 0;
  const { scan, checked, file } = await scanInParallel(runner, input, spec, threshold, pass, {
    signal,
    prepared: prepare?.(spec, pass),
    languages,
    onSlice: onScanned
      ? (slice, samples) => onScanned(Math.min(1, (slice.start + slice.length) / bytes), samples)
      : undefined,
  });
  return { runner, file, checks: FileChecks.fromScan(scan, checked, file.samples) };
}
