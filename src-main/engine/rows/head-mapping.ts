import { describeMapping } from '../../../src-shared/describe-mapping.ts';
import { AppError } from '../../../src-shared/errors.ts';
import { fieldsOf, guessMapping } from '../mapping/index.ts';
import { valuesOf, type RowResult } from './row-result.ts';
import { resolveRowMapping, type MappingWanted, type RowMapping } from './row-mapping.ts';

/** How many rows of a file its shape is detected on (and its preview drawn from). */
export const DETECTION_ROWS = 100;

/**
 * The mapping for a file from its first rows (DETECTION_ROWS of them) and
 * what the user asked for; undefined for an empty file; throws naming the
 * file's fields (and suggesting a mapping) when nothing maps. `path` names
 * the file in that message.
 */
export function headMapping(
  path: string,
  head: readonly RowResult[],
  wanted: Pick<MappingWanted, 'shape' | 'mapping' | 'paths'>,
): RowMapping | undefined {
  const values = valuesOf(head);
  const mapping = resolveRowMapping(head, {
    shape: wanted.shape,
    mapping: wanted.mapping,
    paths: wanted.paths,
  });
  if (mapping) return mapping;
  if (values.length === 0 && head.length === 0) return undefined;
  if (values.length === 0) {
    throw new AppError(
      'invalid_request',
      `no readable rows in the first ${head.length} of ${path}`,
    );
  }
  const fields = fieldsOf(values);
  const guess = guessMapping(fields);
  throw new AppError(
    'invalid_request',
    `the rows of ${path} match no known dataset shape (GSM8K, MMLU, ARC, CommonsenseQA, ` +
      `HellaSwag, TruthfulQA, Alpaca, ShareGPT, OpenAI chat, OpenAssistant, plain text, ` +
      `or samples with task_type); their fields: ${fields.map((f) => f.path).join(', ')}. ` +
      `Say which fields fill which roles` +
      (guess
        ? `, e.g. ${describeMapping(guess, 'flags')}`
        : ' with --task-type TYPE --map ROLE=FIELD'),
  );
}
