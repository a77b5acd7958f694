/**
 * The shipped fingerprints' index (`src-shared/benchmark-fingerprints/index.json`): one
 * entry per set, with where its items came from and under which license.
 */
export interface FingerprintIndexEntry {
  /** `gsm8k/test`. */
  name: string;
  title: string;
  /** The fingerprint file beside the index. */
  file: string;
  items: number;
  /** n-grams kept. */
  entries: number;
  /** Items too short, or all boilerplate: never matched. */
  unmatchable: number;
  source_file: string;
  source_sha256: string;
  source: string;
  license: string;
  paper: string;
}

export const FINGERPRINT_INDEX = 'index.json';

/** `gsm8k-test.fp` for `gsm8k/test`. */
export const fingerprintFile = (name: string): string => `${name.replace('/', '-')}.fp`;
