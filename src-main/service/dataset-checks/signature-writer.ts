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
 * Rows whose signatures are stored at a time, and how long a transaction of
 * them goes on before the server may answer (at most one chunk beyond it):
 * an update's cost grows with the table, and 256 rows a turn, ~10 ms at 50k
 * rows, held the main thread ~30 ms at 200k.
 */
const ROWS_PER_CHUNK = 32;
const TURN_MS = 5;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Stores the signatures a scan computed (a cache of the scan's, rebuilt when
 * lost: committed without an fsync), on the main connection, a few ms a
 * turn. A scan's slice workers hand them out faster than one
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
      const chunk = (start: number): { row_index: number; sig: Buffer }[] =>
        rows.slice(start, start + ROWS_PER_CHUNK).map((row_index, i) => {
          const at = (start + i) * length * 4;
          return { row_index, sig: Buffer.from(words.buffer, words.byteOffset + at, length * 4) };
        });
      for (let start = 0; start < rows.length;) {
        if (!this.#db.open) return;
        const deadline = performance.now() + TURN_MS;
        bulkTransaction(this.#db, () => {
          do {
            saveSignatures(this.#db, this.#datasetId, chunk(start));
            start += ROWS_PER_CHUNK;
          } while (start < rows.length && performance.now() < deadline);
        });
        await nextTurn();
      }
    }
  }
}
