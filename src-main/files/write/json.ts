import { writeText } from './text.ts';

type Row = Record<string, unknown>;

/** How rows are framed as JSON text: before the first, between two, after the last; with none. */
interface JsonFrame {
  first: string;
  between: string;
  last: string;
  empty: string;
}

/** JSON Lines: one `JSON.stringify`d row per line. */
export const JSONL_FRAME: JsonFrame = { first: '', between: '\n', last: '\n', empty: '' };
/** A JSON array, one row per line. */
export const JSON_ARRAY_FRAME: JsonFrame = {
  first: '[\n',
  between: ',\n',
  last: '\n]\n',
  empty: '[]\n',
};

/** Rows as JSON text in a frame, streamed. */
export async function writeJsonRows(
  path: string,
  rows: AsyncIterable<Row>,
  frame: JsonFrame,
  counter: { rows: number },
): Promise<void> {
  await writeText(
    path,
    (async function* () {
      for await (const row of rows) {
        yield (counter.rows === 0 ? frame.first : frame.between) + JSON.stringify(row);
        counter.rows++;
      }
      yield counter.rows === 0 ? frame.empty : frame.last;
    })(),
  );
}
