import type { TaskType } from '../../../src-shared/schemas/sample.ts';
import { textOf } from './language-reservoir.ts';

/**
 * What the statistics read of one sample, as plain data: a worker thread
 * makes it where the sample was parsed, and the thread that owns the
 * accumulator adds it (`addRecord`), in the run's order. `add(sample)` goes
 * through the same record, so both ways count alike.
 */
export interface StatisticsRecord {
  type: TaskType;
  /** The length of each field read, in the order read (a field's histogram is made at its first). */
  lengths: [string, number][];
  turns?: number;
  /** Multiple choice: the labelled answer's index, and the number of choices. */
  position?: [number, number];
  /** Counted as a label (null: the sample has none); undefined: the task type has no label. */
  label?: string | null;
  /** The text the language is identified on, clipped. */
  language?: string;
}

/**
 * A slice's statistics records as they cross threads: columns of typed
 * arrays, each field name and label once per slice, and the texts read for
 * the language as UTF-16 code units. A record per sample as an object (its
 * array of [field, length] pairs, a 500-character text) cost the thread that
 * adds the slices in order about a third of its CPU in a file pass: V8's
 * deserializer built every object and string, the garbage collector moved
 * them, and each field name was hashed again for its Map. Here that thread
 * reads numbers, and makes a text only for the rows the language sample
 * keeps (`StatisticsAccumulator.addPacked`).
 */
export interface PackedRecords {
  samples: number;
  /** Each sample's task type, an index in TASK_TYPES. */
  types: Uint8Array;
  /** Field names and labels, each once, in the order first met in the slice. */
  fields: string[];
  labels: string[];
  /** Sample i's lengths are pairs [lengthEnds[i - 1] ?? 0, lengthEnds[i]) of these two. */
  lengthField: Uint32Array;
  lengthValue: Uint32Array;
  lengthEnds: Uint32Array;
  /** -1: none. */
  turns: Int32Array;
  /** The labelled answer's index and the number of choices; -1: not positioned. */
  positionIndex: Int32Array;
  positionChoices: Int32Array;
  /** An index in `labels`; NO_LABEL: null, LABEL_UNDEFINED: the task type has none. */
  label: Int32Array;
  /** Sample i's text for its language is languageChars[languageStart[i], languageEnd[i]); -1: none. */
  languageChars: Uint16Array;
  languageStart: Int32Array;
  languageEnd: Int32Array;
  /**
   * The texts were left out (`withoutLanguageTexts`): `languageStart` only
   * tells which samples have one, and the accumulator keeps a row's position
   * for its text to be read again if the language sample keeps it.
   */
  languageElsewhere?: true;
}

export const TASK_TYPES: readonly TaskType[] = [
  'text',
  'multiple_choice',
  'question_answer',
  'conversation',
];
export const NO_LABEL = -1;
export const LABEL_UNDEFINED = -2;

/** Grows a typed array by doubling (a slice's sizes are not known ahead). */
class Column<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array> {
  length = 0;
  data: T;
  readonly #make: (size: number) => T;
  constructor(data: T, make: (size: number) => T) {
    this.data = data;
    this.#make = make;
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }
  grow(size: number): void {
    if (size <= this.data.length) return;
    const next = this.#make(Math.max(size, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

const u8 = (n: number): Uint8Array => new Uint8Array(n);
const u16 = (n: number): Uint16Array => new Uint16Array(n);
const u32 = (n: number): Uint32Array => new Uint32Array(n);
const i32 = (n: number): Int32Array => new Int32Array(n);

/** Packs records one at a time, in the slice's order (a worker: `SlicePreparer`). */
export class RecordPacker {
  #samples = 0;
  readonly #types = new Column(u8(512), u8);
  readonly #fieldIds = new Map<string, number>();
  readonly #labelIds = new Map<string, number>();
  readonly #lengthField = new Column(u32(1024), u32);
  readonly #lengthValue = new Column(u32(1024), u32);
  readonly #lengthEnds = new Column(u32(512), u32);
  readonly #turns = new Column(i32(512), i32);
  readonly #positionIndex = new Column(i32(512), i32);
  readonly #positionChoices = new Column(i32(512), i32);
  readonly #label = new Column(i32(512), i32);
  readonly #languageChars = new Column(u16(1 << 16), u16);
  readonly #languageStart = new Column(i32(512), i32);
  readonly #languageEnd = new Column(i32(512), i32);

  add(record: StatisticsRecord): void {
    this.#samples++;
    this.#types.push(TASK_TYPES.indexOf(record.type));
    for (const [field, length] of record.lengths) {
      this.#lengthField.push(idOf(this.#fieldIds, field));
      this.#lengthValue.push(length);
    }
    this.#lengthEnds.push(this.#lengthField.length);
    this.#turns.push(record.turns ?? -1);
    this.#positionIndex.push(record.position ? record.position[0] : -1);
    this.#positionChoices.push(record.position ? record.position[1] : -1);
    this.#label.push(
      record.label === undefined
        ? LABEL_UNDEFINED
        : record.label === null
          ? NO_LABEL
          : idOf(this.#labelIds, record.label),
    );
    const text = record.language;
    if (text === undefined) {
      this.#languageStart.push(-1);
      this.#languageEnd.push(-1);
      return;
    }
    const chars = this.#languageChars;
    const start = chars.length;
    chars.grow(start + text.length);
    for (let i = 0; i < text.length; i++) chars.data[start + i] = text.charCodeAt(i);
    chars.length = start + text.length;
    this.#languageStart.push(start);
    this.#languageEnd.push(chars.length);
  }

  pack(): PackedRecords {
    return {
      samples: this.#samples,
      types: this.#types.done(),
      fields: [...this.#fieldIds.keys()],
      labels: [...this.#labelIds.keys()],
      lengthField: this.#lengthField.done(),
      lengthValue: this.#lengthValue.done(),
      lengthEnds: this.#lengthEnds.done(),
      turns: this.#turns.done(),
      positionIndex: this.#positionIndex.done(),
      positionChoices: this.#positionChoices.done(),
      label: this.#label.done(),
      languageChars: this.#languageChars.done(),
      languageStart: this.#languageStart.done(),
      languageEnd: this.#languageEnd.done(),
    };
  }
}

/** Ids in the order first met: the Map's keys, in order, are the table. */
function idOf(ids: Map<string, number>, value: string): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = ids.size;
    ids.set(value, id);
  }
  return id;
}

/**
 * The records without their language texts (see `languageElsewhere`): a
 * shard's scan is written so, for the texts were nine tenths of its bytes
 * and `svc merge` reads back only the few thousand its language sample keeps.
 */
export function withoutLanguageTexts(packed: PackedRecords): PackedRecords {
  return { ...packed, languageChars: new Uint16Array(0), languageElsewhere: true };
}

/** Whether sample i has a text for its language. */
export function hasLanguageText(packed: PackedRecords, i: number): boolean {
  return (packed.languageStart[i] as number) >= 0;
}

/** Sample i's text for its language, as code units (a view); undefined: none. */
export function languageUnitsOf(packed: PackedRecords, i: number): Uint16Array | undefined {
  const start = packed.languageStart[i] as number;
  if (start < 0) return undefined;
  return packed.languageChars.subarray(start, packed.languageEnd[i]);
}

/** Sample i's text for its language, exactly as recorded. */
export function languageTextOf(packed: PackedRecords, i: number): string | undefined {
  const units = languageUnitsOf(packed, i);
  return units && textOf(units);
}

/** Record i back as an object (tests, and a caller that wants one). */
export function unpackRecord(packed: PackedRecords, i: number): StatisticsRecord {
  const from = packed.lengthEnds[i - 1] ?? 0;
  const lengths: [string, number][] = [];
  for (let k = from; k < (packed.lengthEnds[i] as number); k++) {
    lengths.push([
      packed.fields[packed.lengthField[k] as number] as string,
      packed.lengthValue[k] as number,
    ]);
  }
  const record: StatisticsRecord = {
    type: TASK_TYPES[packed.types[i] as number] as TaskType,
    lengths,
  };
  const turns = packed.turns[i] as number;
  if (turns >= 0) record.turns = turns;
  const index = packed.positionIndex[i] as number;
  if (index >= 0) record.position = [index, packed.positionChoices[i] as number];
  const label = packed.label[i] as number;
  if (label !== LABEL_UNDEFINED) record.label = label === NO_LABEL ? null : packed.labels[label];
  const language = languageTextOf(packed, i);
  if (language !== undefined) record.language = language;
  return record;
}
