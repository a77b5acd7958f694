import { headMapping, mappingSpecOf, type RowMappingSpec } from '../engine/rows/index.ts';
import { FileChecks } from '../service/dataset-checks/file.ts';
import {
  scanInParallel,
  TaskRunner,
  type ParallelFile,
  type PassContamination,
  type PreparedScan,
} from '../service/file-pass/parallel-pass.ts';
import type { EnginePool } from '../service/runs/pool/pool.ts';
import { readHead, type ReadSamplesOptions } from '../service/samples/read-samples.ts';
import { filePassContamination, type FileContamination } from './contamination-flags.ts';

/**
 * A CLI run's scan on every core (service/file-pass): the mapping chosen on
 * the file's first rows here, as `readSamples` chooses it, then the dataset
 * checks over slices of the file on the engine's workers (`languages`: see
 * `scanInParallel`). Undefined for a
 * file without rows (the row-at-a-time pass says what it says of those).
 */
export async function scanFileInParallel(
  pool: EnginePool,
  input: string,
  read: ReadSamplesOptions,
  threshold: number,
  contamination: FileContamination,
  signal: AbortSignal,
  prepare?: (mapping: RowMappingSpec, contamination: PassContamination) => PreparedScan,
  languages?: Promise<ReadonlyMap<number, string> | undefined>,
): Promise<{ runner: TaskRunner; file: ParallelFile; checks: FileChecks } | undefined> {
  const head = await readHead(input, 'jsonl');
  const mapping = headMapping(input, head, read);
  if (!mapping) return undefined;
  read.onMapping?.(mapping);
  const runner = new TaskRunner(pool, signal);
  const spec = mappingSpecOf(mapping);
  const pass = await filePassContamination(contamination, read);
  const { scan, checked, file } = await scanInParallel(
    runner,
    input,
    spec,
    threshold,
    pass,
    signal,
    prepare?.(spec, pass),
    languages,
  );
  return { runner, file, checks: FileChecks.fromScan(scan, checked, file.samples) };
}
