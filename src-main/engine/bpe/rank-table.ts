import type { RankBytes } from './rank-file.ts';

/** A built table's arrays: what another thread adopts without hashing again (`RankTable.of`). */
export interface RankTableParts {
  bytes: Uint8Array;
  starts: Uint32Array;
  /** rank + 1 at each slot, 0 where empty. */
  slots: Int32Array;
}

/**
 * A BPE vocabulary's rank of a byte string, looked up in place (no string,
 * no subarray): an open-addressing table of ranks by an FNV-1a hash of the
 * token's bytes, built in 25-40 ms from the rank file's bytes. Built in
 * shared memory, one thread's table is every thread's: the engine's workers
 * adopt the one their pool's thread built (service/runs/pool), where each
 * built its own (~30 ms and ~6 MB a worker, 16 times on 16 cores).
 */
export class RankTable {
  readonly #bytes: Uint8Array;
  readonly #starts: Uint32Array;
  readonly #slots: Int32Array;
  readonly #mask: number;

  private constructor({ bytes, starts, slots }: RankTableParts) {
    this.#bytes = bytes;
    this.#starts = starts;
    this.#slots = slots;
    this.#mask = slots.length - 1;
  }

  /** The table of `ranks`; `shared`: its arrays in shared memory, for `parts` to send. */
  static build({ bytes, starts }: RankBytes, { shared = false } = {}): RankTable {
    const count = starts.length - 1;
    // At most a quarter full: probes stay short for the misses a merge asks most.
    let size = 1;
    while (size < count * 4) size *= 2;
    const slots = new Int32Array(memory(size * 4, shared));
    const mask = size - 1;
    for (let rank = 0; rank < count; rank++) {
      const start = starts[rank] as number;
      if (start === starts[rank + 1]) continue;
      let slot = hash(bytes, start, starts[rank + 1] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = rank + 1;
    }
    if (!shared) return new RankTable({ bytes, starts, slots });
    const sharedBytes = new Uint8Array(memory(bytes.length, true));
    sharedBytes.set(bytes);
    const sharedStarts = new Uint32Array(memory(starts.byteLength, true));
    sharedStarts.set(starts);
    return new RankTable({ bytes: sharedBytes, starts: sharedStarts, slots });
  }

  /** A table another thread built (its `parts`), as it is: nothing hashed here. */
  static of(parts: RankTableParts): RankTable {
    const { slots } = parts;
    if (slots.length === 0 || (slots.length & (slots.length - 1)) !== 0) {
      throw new Error("a rank table's slots must be a power of two in number");
    }
    return new RankTable(parts);
  }

  /** The arrays (shared when built so): what `RankTable.of` takes in another thread. */
  get parts(): RankTableParts {
    return { bytes: this.#bytes, starts: this.#starts, slots: this.#slots };
  }

  get size(): number {
    return this.#starts.length - 1;
  }

  /** The rank of `key[start..end)`, or -1 if it is no token. */
  rankOf(key: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hash(key, start, end) & this.#mask;
    for (
      let entry = this.#slots[slot] as number;
      entry !== 0;
      entry = this.#slots[slot] as number
    ) {
      const rank = entry - 1;
      const at = this.#starts[rank] as number;
      if ((this.#starts[rank + 1] as number) - at === length) {
        let same = true;
        for (let i = 0; i < length && same; i++) same = this.#bytes[at + i] === key[start + i];
        if (same) return rank;
      }
      slot = (slot + 1) & this.#mask;
    }
    return -1;
  }
}

function memory(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  // The low bits index the table: fold the high ones in.
  return (h ^ (h >>> 15)) >>> 0;
}
