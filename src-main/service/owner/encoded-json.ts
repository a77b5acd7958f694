import { parseJsonExactBytes } from '../../../src-shared/exact-json.ts';

/**
 * A handler's answer already written as UTF-8 JSON, by the thread that read
 * it (a large row's detail: see datasets/row-detail.ts). The edges send the
 * bytes as they are (the HTTP body, the IPC result's `json`), so the main
 * thread neither builds the value nor serializes it: for a row of 20 MB that
 * was a fifth of a second of the server's thread. `T` is what the bytes
 * hold, for the types only.
 */
export class EncodedJson<T> {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Never set: what the bytes hold, for the types. */
  readonly holds?: T;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    this.bytes = bytes;
  }
}

/** An owner handler's answer: the value, or its JSON already encoded. */
export type Answer<T> = T | EncodedJson<T>;

/**
 * The value of an answer, for in-process callers that use it (the desktop
 * shell, tests): an encoded one is parsed here, as the page would parse it.
 */
export function answerValue<T>(answer: Answer<T>): T {
  return answer instanceof EncodedJson ? (parseJsonExactBytes(answer.bytes) as T) : answer;
}
