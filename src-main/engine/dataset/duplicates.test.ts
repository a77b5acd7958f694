import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  asText,
  commonsenseQa,
  gsm8k,
  hellaswag,
  oasst,
  readJsonl,
  truthfulQa,
} from '../testing/real-data.ts';
import { needsShared, sharedJsonl } from '../testing/shared-data.ts';
import {
  bandPushes,
  repeatedKeys,
  sortByKeys,
  DuplicateIndex,
  duplicatesVerdict,
  duplicateWords,
  findDuplicates,
  packVerifyWords,
  unpackVerifyWords,
  verifyWords,
  type BandPushes,
  type FetchWords,
} from './duplicates.ts';
import { normalizeForDuplicates } from './keys.ts';
import { bandingFor, jaccard, shingleSet } from './minhash.ts';
import { INJECTED_KINDS, injectDuplicates, type InjectedKind } from './testing/inject.ts';
import { mc, qa, text } from './testing/samples.ts';

const SIXTY_WORDS =
  'The committee met on Tuesday morning to review the annual budget and discuss the proposed ' +
  'changes to the library opening hours. After a long debate about staffing costs, heating ' +
  'bills and the needs of students who study late, the members agreed to extend the evening ' +
  'hours on weekdays while closing one hour earlier on Sundays during the winter season.';

describe('the duplicates check', () => {
  it('normalises case, whitespace, punctuation and Unicode form, but not a text of symbols', () => {
    expect(normalizeForDuplicates('  Hello,\tWORLD!! ')).toBe('hello world');
    expect(normalizeForDuplicates('ｆｕｌｌ width')).toBe('full width');
    expect(normalizeForDuplicates('∆°')).not.toBe(normalizeForDuplicates('×‘×”'));
  });

  it('passes the first occurrence and fails later copies, naming the first', async () => {
    const { groups, issues } = await findDuplicates([
      text('A cat sat on the mat.'),
      text('Something else entirely.'),
      text('a cat sat on the mat'),
      text('A  CAT sat, on the mat!'),
    ]);
    expect(groups).toEqual([
      { kind: 'exact', rows: [0, 2, 3], similarity: 1, label_conflict: false },
    ]);
    expect(issues.has(0)).toBe(false);
    expect(issues.get(2)).toEqual([
      expect.objectContaining({
        code: 'exact_duplicate',
        ref: 0,
        similarity: 1,
        severity: 'error',
      }),
    ]);
    expect(duplicatesVerdict(issues.get(3))).toMatchObject({ passed: false, score: 0.6 });
    expect(duplicatesVerdict(issues.get(1))).toEqual({ passed: true, score: 1, issues: [] });
  });

  it('finds a 60-word text with one or two words changed, with its similarity', async () => {
    const one = SIXTY_WORDS.replace('Tuesday', 'Friday');
    const two = one.replace('heating', 'lighting');
    const { groups, issues } = await findDuplicates([text(SIXTY_WORDS), text(one), text(two)]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: 'near', rows: [0, 1, 2] });
    const [near] = issues.get(2) ?? [];
    expect(near).toMatchObject({ code: 'near_duplicate', ref: 0 });
    expect(near?.similarity).toBeGreaterThan(0.8);
    expect(near?.similarity).toBeLessThan(1);
  });

  it('keeps different texts apart, and task types apart', async () => {
    const { groups } = await findDuplicates([
      text(SIXTY_WORDS),
      text(SIXTY_WORDS.split(' ').slice(0, 30).join(' ')),
      qa('A cat sat on the mat.', '1'),
      text('A cat sat on the mat.'),
    ]);
    expect(groups).toEqual([]);
  });

  it('matches a multiple-choice item with its choices reordered, and its label by text', async () => {
    const { groups, issues } = await findDuplicates([
      mc('Which is a fruit?', ['apple', 'brick', 'chair'], 0),
      mc('Which is a fruit?', ['chair', 'apple', 'brick'], 1),
      mc('Which is a fruit?', ['brick', 'chair', 'apple'], 0),
    ]);
    expect(groups).toEqual([
      { kind: 'exact', rows: [0, 1, 2], similarity: 1, label_conflict: true },
    ]);
    // The third labels "brick": it and the two that label "apple" all fail, naming the others.
    expect(issues.get(0)?.map((i) => i.code)).toEqual(['label_conflict']);
    expect(issues.get(0)?.[0]).toMatchObject({ ref: 2 });
    expect(issues.get(2)?.find((i) => i.code === 'label_conflict')?.message).toMatch(
      /labelled differently in row 0, row 1/,
    );
    expect(
      issues
        .get(1)
        ?.map((i) => i.code)
        .sort(),
    ).toEqual(['exact_duplicate', 'label_conflict']);
  });

  it('names the first five rows labelled otherwise and counts the rest', async () => {
    // One row answers 3; nine copies of it answer 4.
    const rows = [
      qa('How many?', '#### 3'),
      ...Array.from({ length: 9 }, () => qa('How many?', '#### 4')),
    ];
    const { issues } = await findDuplicates(rows);
    expect(issues.get(0)?.find((i) => i.code === 'label_conflict')).toMatchObject({
      message:
        'the same question is labelled differently in row 1, row 2, row 3, row 4, row 5 and 4 more',
      ref: 1,
    });
    for (const row of [1, 5, 9]) {
      expect(issues.get(row)?.find((i) => i.code === 'label_conflict')).toMatchObject({
        message: 'the same question is labelled differently in row 0',
        ref: 0,
      });
    }
  });

  it('compares final answers of worked solutions, not their wording', async () => {
    const q = 'Tom has 3 apples and buys 2 more. How many?';
    const agree = await findDuplicates([qa(q, '3 + 2 = 5\n#### 5'), qa(q, 'He has 5.\n#### 5')]);
    expect(agree.groups[0]?.label_conflict).toBe(false);
    const differ = await findDuplicates([qa(q, '#### 5'), qa(q, '#### 6')]);
    expect(differ.groups[0]?.label_conflict).toBe(true);
  });

  it('bands 0.8 as 18 bands of 7 rows', () => {
    expect(bandingFor(0.8)).toEqual({ bands: 18, rows: 7 });
    expect(bandingFor(0.5).rows).toBeLessThan(7);
  });

  it('finds every pair above the threshold among random texts (property)', async () => {
    const words = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(words, { minLength: 1, maxLength: 12 }), {
          minLength: 2,
          maxLength: 12,
        }),
        async (texts) => {
          const samples = texts.map((t) => text(t.join(' ')));
          const { issues } = await findDuplicates(samples, 0.6);
          const sets = texts.map((t) => shingleSet(t));
          for (let j = 1; j < texts.length; j++) {
            const similar = texts.slice(0, j).some((_, i) => jaccard(sets[i]!, sets[j]!) >= 0.6);
            // LSH may miss a pair (rarely); what it reports must be right.
            const flagged = issues.get(j)?.some((i) => i.code !== 'label_conflict') ?? false;
            if (flagged) expect(similar).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('duplicates injected into real data', () => {
  const KINDS: readonly InjectedKind[] = INJECTED_KINDS;

  /** Precision and recall of the injected copies (rows flagged that were not injected are false). */
  async function measure(samples: Sample[], copies: number, kinds = KINDS, seed = 7) {
    const clean = await findDuplicates(samples);
    const dirty = injectDuplicates(samples, copies, kinds, seed);
    const result = await findDuplicates(dirty.samples);
    const flagged = new Set(
      [...result.issues]
        .filter(([, list]) => list.some((i) => i.code !== 'label_conflict'))
        .map(([row]) => row),
    );
    const injected = new Set(dirty.injected.map((i) => i.row));
    const found = dirty.injected.filter((i) => {
      const issue = result.issues.get(i.row)?.[0];
      // Found when flagged in the group of the sample it copies.
      return (
        issue?.ref !== undefined &&
        result.groups.some((g) => g.rows.includes(i.of) && g.rows.includes(i.row))
      );
    });
    return {
      clean: clean.groups.length,
      injected: dirty.injected.length,
      recall: found.length / dirty.injected.length,
      precision: [...flagged].filter((row) => injected.has(row)).length / Math.max(1, flagged.size),
    };
  }

  it('finds the copies among GSM8K, CommonsenseQA, HellaSwag, TruthfulQA and OASST', async () => {
    const pool = [...gsm8k(), ...commonsenseQa(), ...hellaswag(), ...truthfulQa(), ...oasst()];
    const result = await measure(pool, 300);
    expect(result.clean).toBe(0);
    expect(result.injected).toBe(300);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
  });

  const alpacaFile = 'datasets/alpaca_original_300.jsonl';
  const withAlpaca = needsShared(
    'finds long texts with one or two words changed (Alpaca)',
    alpacaFile,
  );
  it.skipIf(withAlpaca.skip)(withAlpaca.name, async () => {
    const alpaca = sharedJsonl<{ instruction: string; input: string; output: string }>(
      alpacaFile,
    ).map((r) => asText(`${r.instruction}\n${r.input}\n${r.output}`));
    const result = await measure(alpaca, 100, ['one_word', 'two_words'], 3);
    expect(result.injected).toBe(100);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
  });

  it("reports ftfy's two near-identical mojibake headlines as the one real group", async () => {
    const cases = readJsonl<{ original: string }>('ftfy_mojibake_cases.jsonl');
    const { groups } = await findDuplicates(cases.map((c) => asText(c.original)));
    expect(groups).toEqual([expect.objectContaining({ kind: 'near', rows: [39, 40] })]);
  });

  it('indexes rows one at a time with the same result as a list', async () => {
    const samples = injectDuplicates(gsm8k(), 40, ['exact', 'case']).samples;
    const index = new DuplicateIndex();
    for (const sample of samples) index.add(sample);
    const streamed = await index.finish(() => undefined);
    const listed = await findDuplicates(samples);
    expect(streamed.groups).toEqual(listed.groups);
  });

  it('names, for any range of rows, every row of it with issues among its grouped rows (property)', async () => {
    const pool = [...gsm8k(), ...commonsenseQa(), ...hellaswag(), ...truthfulQa()];
    const rows = injectDuplicates(pool, 300, KINDS, 9).samples;
    const { issues } = await findDuplicates(rows);
    const withIssues = [...issues].map(([row]) => row);
    expect(withIssues.length).toBeGreaterThan(200);
    fc.assert(
      fc.property(fc.nat({ max: rows.length }), fc.nat({ max: 120 }), (first, count) => {
        const grouped = [...(issues.groupedIn?.(first, count) ?? [])];
        expect(grouped).toEqual([...grouped].sort((a, b) => a - b));
        expect(grouped.every((row) => row >= first && row < first + count)).toBe(true);
        expect(grouped.filter((row) => issues.has(row))).toEqual(
          withIssues.filter((row) => row >= first && row < first + count),
        );
      }),
    );
  });

  it("gives the same result with the bands' pairs made elsewhere, in any chunks (property)", async () => {
    // Templated rows (one big bucket per band) beside copies of real ones.
    const templated = Array.from({ length: 300 }, (_, i) =>
      text(`Natalia sold clips to ${i % 60} of her friends in April, and then she sold half.`),
    );
    const rows = [...injectDuplicates(gsm8k(), 60, KINDS, 5).samples, ...templated];
    const indexOf = (): DuplicateIndex => {
      const index = new DuplicateIndex();
      for (const sample of rows) index.add(sample);
      return index;
    };
    const fetch: FetchWords = (wanted, deliver) => {
      for (const row of wanted) deliver(row, duplicateWords(rows[row] as Sample));
    };
    const here = await indexOf().finish(fetch);
    expect(here.groups.length).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), async (ahead) => {
        let asked = 0;
        // As a pool would: columns taken a few bands ahead, each band's pairs made apart.
        const elsewhere: BandPushes = async function* (bands, column, reps, n) {
          const made: Float64Array[] = [];
          while (asked < bands && made.length < ahead)
            made.push(bandPushes(reps, column(asked++), n));
          for (let pushes = made.shift(); pushes; pushes = made.shift()) {
            if (asked < bands) made.push(bandPushes(reps, column(asked++), n));
            await Promise.resolve();
            yield pushes;
          }
        };
        const there = await indexOf().finish(fetch, undefined, undefined, undefined, elsewhere);
        expect(asked).toBe(bandingFor(0.8).bands);
        expect(there.groups).toEqual(here.groups);
        expect([...there.issues]).toEqual([...here.issues]);
        expect(there.templated).toEqual(here.templated);
      }),
      { numRuns: 10 },
    );
  });
  it('gives the same result with the words made elsewhere and packed, in any chunks (property)', async () => {
    const templated = Array.from({ length: 300 }, (_, i) =>
      // Long enough that one number changed keeps them similar: siblings of one template.
      text(`${SIXTY_WORDS} The hall seats ${i % 60} people.`),
    );
    const rows = [...injectDuplicates(gsm8k(), 60, KINDS, 5).samples, ...templated];
    const indexOf = (): DuplicateIndex => {
      const index = new DuplicateIndex();
      for (const sample of rows) index.add(sample);
      return index;
    };
    const here = await indexOf().finish((wanted, deliver) => {
      for (const row of wanted) deliver(row, duplicateWords(rows[row] as Sample));
    });
    expect(here.templated?.rows).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (chunk) => {
        // As a scan's slice workers do: a chunk's words made and packed, sent (a copy here), and
        // each row delivered as views of the packed buffers.
        const there = await indexOf().finish((wanted, deliver) => {
          for (let start = 0; start < wanted.length; start += chunk) {
            const part = wanted.slice(start, start + chunk);
            const seen = new Set<number>();
            const made = part.map((row) => verifyWords(duplicateWords(rows[row] as Sample), seen));
            const packed = structuredClone(packVerifyWords(made));
            part.forEach((row, k) => deliver(row, unpackVerifyWords(packed, k)));
          }
        });
        expect(there.groups).toEqual(here.groups);
        expect([...there.issues]).toEqual([...here.issues]);
        expect(there.templated).toEqual(here.templated);
      }),
      { numRuns: 10 },
    );
  });
});

/** GSM8K with copies, its words, an index of its samples and each sample's stored signature. */
function storedCase() {
  const samples = injectDuplicates(gsm8k(), 40, ['exact', 'case', 'two_words']).samples;
  const fetch = (rows: readonly number[], deliver: (row: number, words: string[]) => void) => {
    for (const row of rows) deliver(row, duplicateWords(samples[row]!));
  };
  const fresh = new DuplicateIndex();
  const signatures = samples.map((sample) => {
    fresh.add(sample);
    return fresh.lastSignature();
  });
  return { fetch, fresh, signatures };
}

describe('stored signatures', () => {
  it('give the same groups as the samples, and are refused under another banding', async () => {
    const { fetch, fresh, signatures } = storedCase();
    const stored = new DuplicateIndex();
    for (const signature of signatures) expect(stored.addSignature(signature)).toBe(true);
    expect((await stored.finish(fetch)).groups).toEqual((await fresh.finish(fetch)).groups);
    expect(new DuplicateIndex(0.6).addSignature(signatures[0]!)).toBe(false);
  });

  it('packed one after another, with origins, give what each added in turn gives', async () => {
    const { fetch, signatures } = storedCase();
    const length = signatures[0]!.length;
    const packed = new Uint32Array(signatures.length * length);
    signatures.forEach((signature, i) => packed.set(signature, i * length));
    // Every third row of one origin: those rows are never grouped with each other.
    const origins = signatures.map((_, i) => (i % 3 === 0 ? 5 : 0));
    const oneByOne = new DuplicateIndex();
    signatures.forEach((signature, i) => oneByOne.addSignature(signature, origins[i]));
    const bulk = new DuplicateIndex();
    // In two slices, the second at a size the growable columns must grow for.
    const cut = 7;
    expect(bulk.addSignatures(packed.subarray(0, cut * length), length, cut, origins)).toBe(true);
    expect(
      bulk.addSignatures(
        packed.subarray(cut * length),
        length,
        signatures.length - cut,
        origins.slice(cut),
      ),
    ).toBe(true);
    const [a, b] = [await bulk.finish(fetch), await oneByOne.finish(fetch)];
    expect(a.groups).toEqual(b.groups);
    expect(a.groups.length).toBeGreaterThan(0);
    expect([...a.issues]).toEqual([...b.issues]);
    // Rows all of one origin are never near duplicates of each other: the origins are read.
    const near = (groups: readonly { kind: string }[]) => groups.filter((g) => g.kind === 'near');
    expect(near(b.groups).length).toBeGreaterThan(0);
    const oneOrigin = new DuplicateIndex();
    oneOrigin.addSignatures(
      packed,
      length,
      signatures.length,
      origins.map(() => 5),
    );
    expect(near((await oneOrigin.finish(fetch)).groups)).toEqual([]);
    expect(new DuplicateIndex(0.6).addSignatures(packed, length, signatures.length, null)).toBe(
      false,
    );
    expect(new DuplicateIndex().addSignatures(packed, length, signatures.length + 1, null)).toBe(
      false,
    );
  });
});

describe('rows of one origin', () => {
  it('are never near duplicates of each other (the paths of one tree), but are of other rows', async () => {
    const one = SIXTY_WORDS.replace('Tuesday', 'Friday');
    const index = new DuplicateIndex();
    const samples = [text(SIXTY_WORDS), text(one), text(one.replace('heating', 'lighting'))];
    index.add(samples[0]!, 7);
    index.add(samples[1]!, 7);
    index.add(samples[2]!, 0);
    const { groups } = await index.finish((rows, deliver) => {
      for (const row of rows) deliver(row, duplicateWords(samples[row]!));
    });
    // 0 and 1 share an origin; 2 is near both: one group through it.
    expect(groups).toEqual([expect.objectContaining({ kind: 'near', rows: [0, 1, 2] })]);
    const alone = new DuplicateIndex();
    alone.add(samples[0]!, 7);
    alone.add(samples[1]!, 7);
    const none = await alone.finish((rows, deliver) => {
      for (const row of rows) deliver(row, duplicateWords(samples[row]!));
    });
    expect(none.groups).toEqual([]);
  });
});

describe('sortByKeys', () => {
  it("sorts rows by their keys, ties in the rows' order, for any keys", () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 400 }), (values) => {
        const rows = Uint32Array.from(values, (_, i) => 3 * i + 1);
        const keys = Uint32Array.from(values);
        const expected = [...rows.keys()].sort((a, b) => values[a]! - values[b]! || a - b);
        const sorted = sortByKeys(rows, Uint32Array.from(keys));
        expect([...sorted.rows]).toEqual(expected.map((i) => rows[i]));
        expect([...sorted.keys]).toEqual(expected.map((i) => values[i]));
      }),
    );
  });
});

describe("a band's pairs", () => {
  /** The pairs as every row sorted by its value makes them (bandPushes before its filter). */
  function pairsOfAllRows(reps: Uint32Array, column: Uint32Array, n: number): number[] {
    const order = [...reps.keys()].sort((a, b) => column[a]! - column[b]! || a - b);
    const out: number[] = [];
    for (let start = 0; start < order.length;) {
      let end = start + 1;
      while (end < order.length && column[order[end]!] === column[order[start]!]) end++;
      const run = order.slice(start, end);
      for (let i = 1; i < run.length; i++) {
        out.push(reps[run[0]!]! * n + reps[run[i]!]!);
        if (run.length <= 16)
          for (let j = 1; j < i; j++) out.push(reps[run[j]!]! * n + reps[run[i]!]!);
      }
      start = end;
    }
    return out;
  }

  it('are those of every row sorted, whatever repeats (the rows met once left out of the sort)', () => {
    // Few distinct values (buckets large and small, beyond the 16 paired in full), or any.
    const value = fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 600 }),
        fc.integer({ min: 0, max: 7 }),
        (values, gap) => {
          const reps = Uint32Array.from(values, (_, i) => i * (gap + 1));
          const n = reps.length * (gap + 1) + 1;
          const column = Uint32Array.from([...values, 7, 7]); // longer than reps, as a reused column is
          expect([...bandPushes(reps, column, n)]).toEqual(pairsOfAllRows(reps, column, n));
        },
      ),
    );
  });

  it('keep every value met twice or more, and few met once', () => {
    const n = 50_000;
    const column = Uint32Array.from({ length: n }, (_, i) =>
      i < 100 ? 12345 : Math.imul(i, 2654435761) >>> 0,
    );
    const kept = repeatedKeys(column, n);
    expect([...kept.subarray(0, 100)]).toEqual([...Array(100).keys()]);
    // ~8 slots a value: about one distinct value in eight shares a slot.
    expect(kept.length).toBeLessThan(100 + n / 4);
  });
});
