import { basename } from 'node:path';
import { AppError } from '../../../src-shared/errors.ts';
import type { EvalItem, EvalSource } from '../../engine/contamination/build.ts';
import { sampleAsItem } from '../../engine/contamination/fields.ts';
import { readSamples, type ReadSamplesOptions } from '../samples/read-samples.ts';

/**
 * A user's evaluation files (`--against FILE`) as evaluation sets, read as
 * the run's input is read (same format detection, shape and field mapping):
 * each sample an item, named by its 0-based position among the file's
 * samples. The set is named for the file. A file none of whose rows fit the
 * input's `--shape` or `--map` (an Alpaca eval file beside a mapped input)
 * is read again with its own shape detected, as a run over it would read it.
 * Its mapping is never told to `onMapping`: that is the input's.
 */
export async function readEvalFiles(
  paths: readonly string[],
  options: ReadSamplesOptions,
): Promise<EvalSource[]> {
  const read: ReadSamplesOptions = {
    format: options.format,
    shape: options.shape,
    mapping: options.mapping,
    paths: options.paths,
    signal: options.signal,
  };
  const sources: EvalSource[] = [];
  for (const path of paths) {
    let items = await itemsOf(path, read);
    const flagged = read.shape !== undefined || read.mapping !== undefined;
    if (items.length === 0 && flagged) {
      items = await itemsOf(path, { paths: read.paths, signal: read.signal });
    }
    if (items.length === 0) {
      throw new AppError(
        'invalid_request',
        `--against ${path} holds no samples to look for` +
          (flagged ? ", read with the input's --shape/--map or with its own shape" : ''),
      );
    }
    sources.push({ name: uniqueName(basename(path), sources), items });
  }
  return sources;
}

async function itemsOf(path: string, read: ReadSamplesOptions): Promise<EvalItem[]> {
  const items: EvalItem[] = [];
  for await (const item of readSamples(path, read)) {
    if ('sample' in item) items.push(sampleAsItem(item.sample));
  }
  return items;
}

/** Two files of one name (from two folders) stay two sets. */
function uniqueName(name: string, taken: readonly EvalSource[]): string {
  let candidate = name;
  for (let i = 2; taken.some((source) => source.name === candidate); i++)
    candidate = `${name} (${i})`;
  return candidate;
}
