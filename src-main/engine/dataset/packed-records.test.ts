import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RecordPacker,
  unpackRecord,
  withoutLanguageTexts,
  type PackedRecords,
} from './packed-records.ts';
import { LANGUAGE_SAMPLE, StatisticsAccumulator, type StatisticsRecord } from './statistics.ts';

/** Any record a sample can give, texts with any code units (a clip may halve a surrogate pair). */
const anyRecord: fc.Arbitrary<StatisticsRecord> = fc
  .record({
    type: fc.constantFrom('text', 'multiple_choice', 'question_answer', 'conversation' as const),
    lengths: fc.array(
      fc.tuple(fc.constantFrom('text', 'context', 'choice', 'user turn', 'tool turn'), fc.nat()),
      { maxLength: 5 },
    ),
    turns: fc.option(fc.nat({ max: 40 }), { nil: undefined }),
    position: fc.option(
      fc.integer({ min: 2, max: 6 }).chain((k) => fc.tuple(fc.nat({ max: k - 1 }), fc.constant(k))),
      { nil: undefined },
    ),
    label: fc.option(fc.option(fc.string({ maxLength: 8 }), { nil: null }), { nil: undefined }),
    language: fc.option(fc.string({ unit: 'binary', maxLength: 30 }), { nil: undefined }),
  })
  .map((record) => {
    // As statisticsRecord makes them: a key left out rather than set to undefined.
    const out: StatisticsRecord = { type: record.type, lengths: record.lengths };
    if (record.turns !== undefined) out.turns = record.turns;
    if (record.position !== undefined) out.position = record.position;
    if (record.label !== undefined) out.label = record.label;
    if (record.language !== undefined) out.language = record.language;
    return out;
  });

/** Packs records in slices cut at `cuts`, each as it crosses threads (a structured clone). */
function slices(records: readonly StatisticsRecord[], cuts: readonly number[]): PackedRecords[] {
  const ends = [...new Set(cuts.map((c) => c % (records.length + 1)))].sort((a, b) => a - b);
  const out: PackedRecords[] = [];
  let from = 0;
  for (const end of [...ends, records.length]) {
    const packer = new RecordPacker();
    for (const record of records.slice(from, end)) packer.add(record);
    out.push(structuredClone(packer.pack()));
    from = end;
  }
  return out;
}

async function finishedBoth(records: readonly StatisticsRecord[], cuts: readonly number[]) {
  const one = new StatisticsAccumulator();
  for (const record of records) one.addRecord(record);
  const packed = new StatisticsAccumulator();
  for (const slice of slices(records, cuts)) packed.addPacked(slice);
  return Promise.all([one.finish(), packed.finish()]);
}

describe('statistics records packed for another thread', () => {
  it('unpack to the records packed, code unit for code unit (property)', () => {
    fc.assert(
      fc.property(fc.array(anyRecord, { maxLength: 40 }), (records) => {
        const [packed] = slices(records, []);
        expect(packed?.samples).toBe(records.length);
        records.forEach((record, i) => {
          expect(unpackRecord(packed as PackedRecords, i)).toEqual(record);
        });
      }),
    );
  });

  it('count as the records added one at a time, however the slices are cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyRecord, { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (records, cuts) => {
          const [one, packed] = await finishedBoth(records, cuts);
          expect(packed).toEqual(one);
        },
      ),
      // Each finish identifies languages on a worker of its own: a few runs.
      { numRuns: 12 },
    );
  }, 60_000);

  it('keep the same rows for the language sample beyond its size', async () => {
    const sentences = [
      'The weather was fine and we walked along the river until the evening came.',
      'Le temps était beau et nous avons marché le long de la rivière jusqu’au soir.',
      'Das Wetter war schön und wir gingen am Fluss entlang, bis der Abend kam.',
      'El tiempo era bueno y caminamos junto al río hasta que llegó la tarde.',
    ];
    // Seeded, so that which sentence a row holds is arbitrary but fixed.
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const records: StatisticsRecord[] = Array.from({ length: LANGUAGE_SAMPLE * 2 + 317 }, () => ({
      type: 'text',
      lengths: [['text', 70]],
      language: sentences[Math.floor(next() * sentences.length)] as string,
    }));
    const cuts = Array.from({ length: 40 }, (_, i) => i * 263 + 11);
    const [one, packed] = await finishedBoth(records, cuts);
    expect(packed).toEqual(one);
    expect(one.statistics.languages.sampled).toBe(LANGUAGE_SAMPLE);
    // Four languages in the sample, in shares a different sample would not give exactly.
    expect(one.statistics.languages.detected.length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it("count the same without their texts (a shard's scan), the kept rows' texts fetched at the end", async () => {
    const sentences = [
      'The weather was fine and we walked along the river until the evening came.',
      'Le temps était beau et nous avons marché le long de la rivière jusqu’au soir.',
      'Das Wetter war schön und wir gingen am Fluss entlang, bis der Abend kam.',
    ];
    const records: StatisticsRecord[] = Array.from({ length: LANGUAGE_SAMPLE + 2_000 }, (_, i) =>
      i % 97 === 5
        ? { type: 'conversation', lengths: [], turns: 0 } // no text: draws nothing
        : {
            type: 'text',
            lengths: [['text', 70]],
            language: `${sentences[(i * 7) % sentences.length] as string} ${i}`,
          },
    );
    const cuts = Array.from({ length: 20 }, (_, i) => i * 331 + 3);
    const one = new StatisticsAccumulator();
    for (const record of records) one.addRecord(record);
    const mixed = new StatisticsAccumulator();
    // Every other slice came from a shard, without its texts.
    slices(records, cuts).forEach((slice, k) =>
      mixed.addPacked(k % 2 === 0 ? withoutLanguageTexts(slice) : slice),
    );
    const asked: number[] = [];
    const fetch = (positions: readonly number[]): Promise<string[]> => {
      asked.push(...positions);
      return Promise.resolve(positions.map((p) => records[p]?.language as string));
    };
    expect(await mixed.finish(fetch)).toEqual(await one.finish());
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(LANGUAGE_SAMPLE);
    expect(asked).toEqual([...asked].sort((a, b) => a - b));
    // Without a fetch, rows kept without their texts are an error, not a smaller sample.
    const unfetched = new StatisticsAccumulator();
    for (const slice of slices(records, cuts)) unfetched.addPacked(withoutLanguageTexts(slice));
    await expect(unfetched.finish()).rejects.toThrow(/without their texts/);
  }, 60_000);
});
