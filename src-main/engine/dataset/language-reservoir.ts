import { prng } from './prng.ts';

/**
 * The texts whose language is identified: a uniform sample of at most
 * `size` rows whatever the dataset's size (reservoir sampling, Algorithm R,
 * seeded: the same rows every run). A kept text's code units go into a slot
 * of one buffer (texts are clipped to `chars`), and the texts are made once,
 * at the end: a file pass keeps about 20,000 texts of 100,000 rows on the way
 * to its 5,000, and making each as a string cost the thread that adds the
 * slices ~30 ms per 100,000 rows.
 */
export class LanguageReservoir {
  readonly #size: number;
  readonly #chars: number;
  readonly #units: Uint16Array;
  readonly #lengths: Uint32Array;
  /** Each slot's row position (0-based, in the run). */
  readonly #positions: Int32Array;
  /** A slot's row position whose text is still to be fetched (`keepLater`); -1: it has its text. */
  readonly #later: Int32Array;
  #anyLater = false;
  readonly #random = prng(20261124);
  #kept = 0;

  constructor(size: number, chars: number) {
    this.#size = size;
    this.#chars = chars;
    this.#units = new Uint16Array(size * chars);
    this.#lengths = new Uint32Array(size);
    this.#positions = new Int32Array(size);
    this.#later = new Int32Array(size).fill(-1);
  }

  /** How many texts are kept. */
  get length(): number {
    return this.#kept;
  }

  /**
   * Where the text of the `seen`-th row (1-based, counting every row so far)
   * is kept: its slot, or -1 when it is not. The caller puts it there
   * (`keepUnits`, `keepString`) only when it is kept.
   */
  slotFor(seen: number): number {
    if (this.#kept < this.#size) return this.#kept++;
    const slot = Math.floor(this.#random() * seen);
    return slot < this.#size ? slot : -1;
  }

  /** The text of the row at `position`, as code units, into its slot (at most `chars` of them). */
  keepUnits(slot: number, source: Uint16Array, position: number): void {
    const length = Math.min(source.length, this.#chars);
    this.#units.set(
      length < source.length ? source.subarray(0, length) : source,
      slot * this.#chars,
    );
    this.#lengths[slot] = length;
    this.#positions[slot] = position;
    this.#later[slot] = -1;
  }

  keepString(slot: number, text: string, position: number): void {
    const length = Math.min(text.length, this.#chars);
    const at = slot * this.#chars;
    for (let i = 0; i < length; i++) this.#units[at + i] = text.charCodeAt(i);
    this.#lengths[slot] = length;
    this.#positions[slot] = position;
    this.#later[slot] = -1;
  }

  /**
   * Keeps the row at `position` (0-based, in the run) in its slot without its
   * text, which `fetchLater` brings before `texts`: a shard's scan comes
   * without its rows' texts (they were most of its bytes), and only the few
   * thousand rows kept at the end are read again.
   */
  keepLater(slot: number, position: number): void {
    this.#positions[slot] = position;
    this.#later[slot] = position;
    this.#anyLater = true;
  }

  /** Fetches the texts of the rows kept by `keepLater` (`fetch`: by position, ascending). */
  async fetchLater(fetch: LanguageTextFetch): Promise<void> {
    if (!this.#anyLater) return;
    const slots: number[] = [];
    for (let slot = 0; slot < this.#kept; slot++)
      if ((this.#later[slot] as number) >= 0) slots.push(slot);
    slots.sort((a, b) => (this.#later[a] as number) - (this.#later[b] as number));
    const positions = slots.map((slot) => this.#later[slot] as number);
    const texts = await fetch(positions);
    slots.forEach((slot, k) => {
      const text = texts[k];
      if (text === undefined) throw new Error(`no text came for row ${positions[k]}'s language`);
      this.keepString(slot, text, positions[k] as number);
    });
    this.#anyLater = false;
  }

  /** The row positions kept, in slot order. */
  positions(): number[] {
    return Array.from(this.#positions.subarray(0, this.#kept));
  }

  /**
   * The rows kept with their texts (not by `keepLater`), in position order:
   * a shard's own rows of the run's sample, whose languages it identifies.
   */
  held(): { positions: number[]; texts: string[] } {
    const slots: number[] = [];
    for (let slot = 0; slot < this.#kept; slot++) if (this.#later[slot] === -1) slots.push(slot);
    slots.sort((a, b) => (this.#positions[a] as number) - (this.#positions[b] as number));
    return {
      positions: slots.map((slot) => this.#positions[slot] as number),
      texts: slots.map((slot) => this.#textAt(slot)),
    };
  }

  #textAt(slot: number): string {
    const at = slot * this.#chars;
    return textOf(this.#units.subarray(at, at + (this.#lengths[slot] as number)));
  }

  /** The texts kept, in slot order, each code unit as it was given. */
  texts(): string[] {
    if (this.#anyLater) throw new Error('the texts of rows kept without them were not fetched');
    const out: string[] = [];
    for (let slot = 0; slot < this.#kept; slot++) out.push(this.#textAt(slot));
    return out;
  }
}

/**
 * The language texts (clipped as the scan clips them) of the rows at
 * `positions` (ascending), in that order.
 */
export type LanguageTextFetch = (positions: readonly number[]) => Promise<readonly string[]>;

const utf16 = new TextDecoder('utf-16le');

/**
 * Code units as a string, exactly: the decoder makes a surrogate a clip cut
 * in half U+FFFD, so a text where it put one is made again unit by unit.
 */
export function textOf(units: Uint16Array): string {
  const text = utf16.decode(units);
  if (!text.includes('\uFFFD')) return text;
  let exact = '';
  // In chunks: fromCharCode takes its arguments on the stack.
  for (let at = 0; at < units.length; at += 4096) {
    exact += String.fromCharCode(...units.subarray(at, at + 4096));
  }
  return exact;
}
