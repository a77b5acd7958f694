import { parseBenchmarkChoice, type BenchmarkChoice } from '../../../src-shared/benchmarks.ts';
import { AppError } from '../../../src-shared/errors.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import { buildFingerprints, type EvalSource } from '../../engine/contamination/build.ts';
import { ContaminationMatcher, type MergedIndex } from '../../engine/contamination/match.ts';
import type { FingerprintSet } from '../../engine/contamination/fingerprints.ts';
import { benchmarkSets } from './benchmark-fingerprints.ts';

/**
 * What the `contamination` check looks for in a run: the chosen public
 * benchmarks and the user's own evaluation sets (`--against` files, datasets
 * marked as evaluation sets), as one matcher; `null` when there is nothing to
 * look for.
 */
export interface ContaminationOptions {
  benchmarks: BenchmarkChoice;
  against?: readonly EvalSource[];
}

/** The choice of a flag or setting's text; a clear error when it names no benchmark. */
export function benchmarkChoice(text: string, where: string): BenchmarkChoice {
  const choice = parseBenchmarkChoice(text);
  if (typeof choice === 'object' && 'error' in choice) {
    throw new AppError('invalid_request', `${where} ${choice.error}`);
  }
  return choice;
}

/** Matchers of the benchmarks alone, by choice: an API request asks for one each time. */
const benchmarkMatchers = new Map<string, ContaminationMatcher | null>();

/**
 * `index`: the benchmarks' index as another thread merged it (a run's
 * MatcherSpec), taken by a matcher made here now; one made before keeps its own.
 */
export function contaminationMatcher(
  options: ContaminationOptions,
  index?: MergedIndex,
): ContaminationMatcher | null {
  const against = options.against ?? [];
  if (against.length === 0) {
    const key = JSON.stringify(options.benchmarks);
    if (!benchmarkMatchers.has(key)) {
      const sets = benchmarkSets(options.benchmarks);
      benchmarkMatchers.set(key, sets.length === 0 ? null : new ContaminationMatcher(sets, index));
    }
    return benchmarkMatchers.get(key) ?? null;
  }
  return new ContaminationMatcher([
    ...benchmarkSets(options.benchmarks),
    ...buildFingerprints(against),
  ]);
}

/**
 * The matcher of a file pass, with what an engine worker makes the same
 * matcher from: the benchmarks chosen (each worker loads them) and the
 * evaluation sets fingerprinted here once.
 */
export function passContamination(options: ContaminationOptions): {
  matcher: ContaminationMatcher | null;
  benchmarks: BenchmarkChoice;
  against: FingerprintSet[];
} {
  const sources = options.against ?? [];
  if (sources.length === 0) {
    return { matcher: contaminationMatcher(options), benchmarks: options.benchmarks, against: [] };
  }
  const against = buildFingerprints(sources);
  const matcher = new ContaminationMatcher([...benchmarkSets(options.benchmarks), ...against]);
  return { matcher, benchmarks: options.benchmarks, against };
}

/** The benchmarks the settings choose (API requests, the app's scans). */
export const settingsBenchmarks = (settings: Settings): BenchmarkChoice =>
  benchmarkChoice(settings.contamination.benchmarks, 'contamination.benchmarks');
