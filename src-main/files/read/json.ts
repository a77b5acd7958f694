import { createReadStream } from 'node:fs';
import { TokenParser, Tokenizer, type TokenParserOptions } from '@streamparser/json';
import { exactNumber } from '../../../src-shared/exact-json.ts';
import { checkSignal, readFailure, unreadable } from '../errors.ts';
import { readJsonl } from './jsonl.ts';
import { toRow, type RowResult } from './row-result.ts';
import { sniffText } from './sniff.ts';

/**
 * A JSON array of objects, streamed element by element with
 * @streamparser/json (`keepStack: false`, so elements already read are not
 * kept). A file starting with `{` is read as JSON Lines instead: that is what
 * Hugging Face's `to_json` writes under a `.json` name. JSON that breaks off
 * mid-array cannot be resumed, so a break anywhere fails the read (after the
 * rows before it were yielded: a caller stops there and keeps none of them).
 */
export async function* readJson(path: string, signal?: AbortSignal): AsyncGenerator<RowResult> {
  checkSignal(path, signal);
  const head = (await sniffText(path, 'JSON')).head.toString('utf8').replace(/^\ufeff/, '');
  const first = head.trimStart()[0];
  if (first === '{') {
    yield* readJsonl(path, signal, 'a JSON array or JSON Lines');
    return;
  }
  if (first !== '[') {
    throw unreadable(path, first === undefined ? 'the file is empty' : 'not a JSON array');
  }

  const parser = new ExactJsonParser({ paths: ['$.*'], keepStack: false });
  const queue: RowResult[] = [];
  parser.onValue = ({ value, key }) => {
    queue.push(toRow(Number(key) + 1, value));
  };
  let seen = 0;
  let failure: string | undefined;
  const stream = createReadStream(path, { encoding: 'utf8', signal });
  try {
    let firstChunk = true;
    for await (const chunk of stream as AsyncIterable<string>) {
      try {
        parser.write(firstChunk ? chunk.replace(/^\ufeff/, '') : chunk);
      } catch (error) {
        failure = (error as Error).message;
      }
      firstChunk = false;
      for (const result of queue) {
        checkSignal(path, signal);
        seen = result.row;
        yield result;
      }
      queue.length = 0;
      if (failure !== undefined) break;
    }
    if (failure === undefined && !parser.isEnded) {
      try {
        parser.end();
      } catch (error) {
        failure = (error as Error).message;
      }
    }
  } catch (error) {
    throw readFailure(path, error, signal);
  } finally {
    stream.destroy();
  }
  if (failure === undefined) return;
  if (seen === 0) throw unreadable(path, `not a JSON array (${failure})`);
  // Not one row error: nothing after the break can be read, and a run or an import that went on
  // said "1 row skipped" for a file whose rows after the break (97 of 100, say) were all lost.
  throw unreadable(
    path,
    `its JSON breaks off after row ${seen} (${failure}); nothing after that can be read, so the ` +
      'file is refused rather than taken in part: repair it (or write it as JSON Lines, where a ' +
      'broken line is one row skipped)',
  );
}

/** Numbers read as `parseJsonExact` reads them: an integer beyond 2^53 as a BigInt. */
class ExactTokenizer extends Tokenizer {
  protected override parseNumber(numberStr: string): number {
    // The token parser only stores the value; the row is typed `unknown` from there on.
    return exactNumber(numberStr) as number;
  }
}

/**
 * The library's JSONParser, wired as it wires its own, but with ExactTokenizer
 * (JSONParser makes its tokenizer itself and takes no other).
 */
class ExactJsonParser {
  readonly #tokenizer = new ExactTokenizer();
  readonly #parser: TokenParser;
  constructor(options: TokenParserOptions) {
    const tokenizer = this.#tokenizer;
    const parser = (this.#parser = new TokenParser(options));
    tokenizer.onToken = parser.write.bind(parser);
    tokenizer.onEnd = () => {
      if (!parser.isEnded) parser.end();
    };
    parser.onError = tokenizer.error.bind(tokenizer);
    parser.onEnd = () => {
      if (!tokenizer.isEnded) tokenizer.end();
    };
  }
  get isEnded(): boolean {
    return this.#tokenizer.isEnded && this.#parser.isEnded;
  }
  set onValue(callback: TokenParser['onValue']) {
    this.#parser.onValue = callback;
  }
  write(chunk: string): void {
    this.#tokenizer.write(chunk);
  }
  end(): void {
    this.#tokenizer.end();
  }
}
