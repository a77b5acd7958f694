/**
 * The rows of a shard's part (`svc audit|fix|refine --shard`) as `svc merge`
 * checks them: the merge's main thread orders the lines by position, and the
 * workers parse and check each (`checkPartRow`) before adding the dataset
 * checks' verdicts.
 */

/** One output row of a part. */
export interface PartRowValue {
  position: number;
  source_row: number;
  sample: Record<string, unknown>;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * A row line parsed and checked: what the part must hold at that line (a
 * position, a source row of its shard, a sample), or why not.
 */
export function checkPartRow(
  line: string,
  shard: { shard: number; of: number },
): PartRowValue | { error: string } {
  const value = parseLine(line) as Record<string, unknown> | undefined;
  const { position, source_row, sample } = value ?? {};
  if (
    !Number.isSafeInteger(position) ||
    !Number.isSafeInteger(source_row) ||
    typeof sample !== 'object' ||
    sample === null
  ) {
    return { error: 'a line is not a row {position, source_row, sample}' };
  }
  if (((source_row as number) - 1) % shard.of !== shard.shard) {
    return { error: `source row ${source_row as number} belongs to another shard` };
  }
  return { position, source_row, sample } as PartRowValue;
}
