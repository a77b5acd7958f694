import { bulkTransaction } from '../../store/bulk-writes.ts';
import { saveSignatures } from '../../store/datasets-scan.ts';
import type { Db } from '../../store/db.ts';

/** Signatures of some rows, packed: row `rows[i]` has words [i * length, (i + 1) * length). */
export interface PackedSignatures {
  rows: number[];
  words: Uint32Array<ArrayBuffer>;
  length: number;
}

/**
 * Rows whose signatures are stored per transaction: each is a turn of the
 * main thread (2,000 at once held it ~80 ms).
 */
const ROWS_PER_TURN = 256;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Stores the signatures a scan computed (a cache of the scan's, rebuilt when
 * lost: committed without an fsync), on the main connection, ROWS_PER_TURN
 * rows a turn. A scan's slice workers hand them out faster than one
 * transaction a message would let the server answer: messages that arrive
 * together are taken in one turn, so they are queued here and written at
 * the main thread's pace.
 */
export class SignatureWriter {
  readonly #db: Db;
  readonly #datasetId: string;
  readonly #queue: PackedSignatures[] = [];
  #draining: Promise<void> | undefined;

  constructor(db: Db, datasetId: string) {
    this.#db = db;
    this.#datasetId = datasetId;
  }

  add(signatures: PackedSignatures): void {
    if (signatures.rows.length === 0) return;
    this.#queue.push(signatures);
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined;
    });
  }

  /** Resolves once every signature added is stored. */
  async written(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  async #drain(): Promise<void> {
    await nextTurn();
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      const { rows, words, length } = next;
      for (let start = 0; start < rows.length; start += ROWS_PER_TURN) {
        const batch = rows.slice(start, start + ROWS_PER_TURN).map((row_index, i) => {
          const at = (start + i) * length * 4;
          return {
            row_index,
            sig: Buffer.from(words.buffer, words.byteOffset + at, length * 4),
          };
        });
        if (this.#db.open) {
          bulkTransaction(this.#db, () => saveSignatures(this.#db, this.#datasetId, batch));
        }
        await nextTurn();
      }
    }
  }
}
