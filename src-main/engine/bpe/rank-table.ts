import type { RankBytes } from './rank-file.ts';

/**
 * A BPE vocabulary's rank of a byte string, looked up in place (no string,
 * no subarray): an open-addressing table of ranks by an FNV-1a hash of the
 * token's bytes, built in a few milliseconds from the rank file's bytes.
 */
export class RankTable {
  readonly #bytes: Uint8Array;
  readonly #starts: Uint32Array;
  /** rank + 1 at each slot, 0 where empty. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  constructor({ bytes, starts }: RankBytes) {
    this.#bytes = bytes;
    this.#starts = starts;
    const count = starts.length - 1;
    // At most a quarter full: probes stay short for the misses a merge asks most.
    let size = 1;
    while (size < count * 4) size *= 2;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
    for (let rank = 0; rank < count; rank++) {
      const start = starts[rank] as number;
      if (start === starts[rank + 1]) continue;
      let slot = hash(bytes, start, starts[rank + 1] as number) & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = rank + 1;
    }
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

function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  // The low bits index the table: fold the high ones in.
  return (h ^ (h >>> 15)) >>> 0;
}
