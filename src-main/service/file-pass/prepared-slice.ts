import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { ContaminationScan, matchesOf } from '../../engine/contamination/scan.ts';
import { DuplicateIndex } from '../../engine/dataset/duplicates.ts';
import { duplicateKey, type DuplicateKey } from '../../engine/dataset/keys.ts';
import { DatasetScan, prepareSample, type PreparedSample } from '../../engine/dataset/scan.ts';
import { RecordPacker } from '../../engine/dataset/packed-records.ts';
import { statisticsRecord } from '../../engine/dataset/statistics.ts';
import type { ScanSliceResult } from './task-types.ts';

/**
 * The two halves of a scan split across threads, shared by the CLI's file
 * pass (a slice of lines) and the app's dataset scan (a range of stored
 * rows): a worker prepares a slice's samples (SlicePreparer: signature,
 * statistics record, contamination matches), and the thread that orders the
 * slices adds each slice's results in order (addPreparedSlice), which is
 * what `DatasetScan.add` and `ContaminationScan.add` do one sample at a time.
 */
export class SlicePreparer {
  readonly #index: DuplicateIndex;
  readonly #matcher: ContaminationMatcher | null;
  readonly #signatures: Uint32Array[] = [];
  readonly #statistics = new RecordPacker();
  #samples = 0;
  readonly #origins: number[] = [];
  /** Each sample's row (its line in a file), when given. */
  readonly #rows: number[] = [];
  readonly #found: ScanSliceResult['found'] = [];
  #anyOrigin = false;
  /** Only tells whether a stored signature is current (its tag and length): never finished. */
  #stored: DuplicateIndex | undefined;

  /** `index`: a DuplicateIndex of the scan's threshold (only its hashing is used). */
  constructor(index: DuplicateIndex, matcher: ContaminationMatcher | null) {
    this.#index = index;
    this.#matcher = matcher;
  }

  /**
   * Prepares the next sample. `stored`: its signature from an earlier scan
   * of the same sample, taken instead of hashing it when still current (as
   * `DatasetScan.add` does). Returns the signature computed, or null when
   * the stored one served.
   */
  add(sample: Sample, origin: number, stored?: Uint32Array, row?: number): Uint32Array | null {
    if (row !== undefined) this.#rows.push(row);
    let prepared: PreparedSample;
    let fresh: Uint32Array | null = null;
    if (stored && this.#current(stored)) {
      // As DatasetScan.add: the key only if the statistics need it.
      let key: DuplicateKey | undefined;
      const statistics = statisticsRecord(sample, () => (key ??= duplicateKey(sample)));
      prepared = { signature: stored, statistics };
    } else {
      prepared = prepareSample(sample, this.#index);
      fresh = prepared.signature;
    }
    this.#signatures.push(prepared.signature);
    this.#statistics.add(prepared.statistics);
    this.#samples++;
    this.#anyOrigin ||= origin !== 0;
    this.#origins.push(origin);
    if (this.#matcher) {
      const matches = matchesOf(this.#matcher, sample);
      if (matches.length > 0) this.#found.push([this.#samples - 1, matches]);
    }
    return fresh;
  }

  #current(stored: Uint32Array): boolean {
    this.#stored ??= new DuplicateIndex(this.#index.threshold);
    return this.#stored.addSignature(stored);
  }

  /** The slice's samples as they cross threads: signatures packed one after another. */
  result(): ScanSliceResult {
    const signatureLength = this.#signatures[0]?.length ?? 0;
    const packed = new Uint32Array(this.#signatures.length * signatureLength);
    this.#signatures.forEach((signature, i) => packed.set(signature, i * signatureLength));
    return {
      samples: this.#samples,
      signatures: packed,
      signatureLength,
      statistics: this.#statistics.pack(),
      origins: this.#anyOrigin ? this.#origins : null,
      rows: this.#rows.length === this.#samples ? Uint32Array.from(this.#rows) : null,
      found: this.#found,
    };
  }
}

/** Adds a prepared slice's samples, in order, after those added before. */
export function addPreparedSlice(
  scan: DatasetScan,
  found: ContaminationScan,
  result: ScanSliceResult,
): void {
  scan.addPackedSlice(result.statistics, result.signatures, result.signatureLength, result.origins);
  const matches = new Map(result.found);
  for (let i = 0; i < result.samples; i++) found.addFound(matches.get(i));
}
