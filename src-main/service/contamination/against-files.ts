import { basename } from 'node:path';
import { AppError } from '../../../src-shared/errors.ts';
import type { EvalItem, EvalSource } from '../../engine/contamination/build.ts';
import { sampleAsItem } from '../../engine/contamination/fields.ts';
import { readSamples, type ReadSamplesOptions } from '../samples/read-samples.ts';

/**
 * A user's evaluation files (`--against FILE`) as evaluation sets, read as
 * the run's input is read (same format detection, shape and field mapping):
 * each sample an item, named by its 0-based position among the file's
 * samples. The set is named for the file.
 */
export async function readEvalFiles(
  paths: readonly string[],
  options: ReadSamplesOptions,
): Promise<EvalSource[]> {
  const sources: EvalSource[] = [];
  for (const path of paths) {
    const items: EvalItem[] = [];
    for await (const item of readSamples(path, options)) {
      if ('sample' in item) items.push(sampleAsItem(item.sample));
    }
    if (items.length === 0) {
      throw new AppError('invalid_request', `--against ${path} holds no samples to look for`);
    }
    sources.push({ name: uniqueName(basename(path), sources), items });
  }
  return sources;
}

/** Two files of one name (from two folders) stay two sets. */
function uniqueName(name: string, taken: readonly EvalSource[]): string {
  let candidate = name;
  for (let i = 2; taken.some((source) => source.name === candidate); i++)
    candidate = `${name} (${i})`;
  return candidate;
}
