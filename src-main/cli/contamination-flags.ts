import type { ContaminationMatcher } from '../engine/contamination/match.ts';
import { readEvalFiles } from '../service/contamination/against-files.ts';
import {
  benchmarkChoice,
  contaminationMatcher,
  passContamination,
} from '../service/contamination/matcher.ts';
import type { PassContamination } from '../service/file-pass/parallel-pass.ts';
import type { ReadSamplesOptions } from '../service/samples/read-samples.ts';

/** What a file run's `contamination` check looks for: `--benchmarks` and `--against`. */
export interface FileContamination {
  /** `all`, `none` or names, as typed (the flag, else the setting). */
  benchmarks: string;
  /** The evaluation files, as absolute paths. */
  against: string[];
}

/** The matcher of a file run; the eval files are read like the input. */
export async function fileMatcher(
  options: FileContamination,
  read: ReadSamplesOptions,
): Promise<ContaminationMatcher | null> {
  return contaminationMatcher({
    benchmarks: benchmarkChoice(options.benchmarks, '--benchmarks'),
    against: await readEvalFiles(options.against, read),
  });
}

/** The contamination check of a parallel file pass (see service/file-pass). */
export async function filePassContamination(
  options: FileContamination,
  read: ReadSamplesOptions,
): Promise<PassContamination> {
  return passContamination({
    benchmarks: benchmarkChoice(options.benchmarks, '--benchmarks'),
    against: await readEvalFiles(options.against, read),
  });
}
