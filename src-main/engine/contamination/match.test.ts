import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFingerprints, LONG_N, type EvalItem } from './build.ts';
import { forEachEntry } from './fingerprints.ts';
import { grams } from './grams.ts';
import { addRange, bucketBits, ContaminationMatcher, type TextField } from './match.ts';
import { tokenize } from './tokens.ts';

/** Items written in the benchmarks' styles: a word problem, a short quiz question, code. */
const ITEMS: EvalItem[] = [
  {
    question:
      'A baker makes 36 muffins each morning. She sells two thirds of them before noon and gives ' +
      'half of the rest to a shelter. How many muffins does she have left at the end of the day?',
    answer:
      'She sells 36 * 2/3 = <<36*2/3=24>>24 muffins.\nThat leaves 36 - 24 = <<36-24=12>>12.\n' +
      'She gives away 12 / 2 = <<12/2=6>>6, so 12 - 6 = <<12-6=6>>6 are left.\n#### 6',
  },
  {
    question: 'Who painted the Sistine Chapel ceiling?',
    answer: 'Michelangelo painted the ceiling between 1508 and 1512',
  },
  { question: 'Who are you?', answer: 'I am an artificial intelligence' },
  {
    question:
      'def running_max(values: list[int]) -> list[int]:\n    """Return the running maximum of values."""\n',
    answer:
      '    out, best = [], None\n    for v in values:\n        best = v if best is None or v > best else best\n' +
      '        out.append(best)\n    return out\n',
  },
];

const matcher = new ContaminationMatcher(buildFingerprints([{ name: 'demo/test', items: ITEMS }]));
const qa = (question: string, answer: string): TextField[] => [
  { path: '/question', text: question },
  { path: '/answer', text: answer },
];
const [problem, painter, whoAreYou, code] = ITEMS as [EvalItem, EvalItem, EvalItem, EvalItem];

describe('ContaminationMatcher', () => {
  it('finds an item verbatim, with the share of question and answer and where it is', () => {
    const [match] = matcher.match(qa(problem.question, problem.answer!));
    expect(match).toMatchObject({
      set: 'demo/test',
      item: 0,
      question: 1,
      answer: 1,
      similarity: 1,
    });
    expect(match!.evidence).toBe(true);
  });

  it('finds it re-cased, re-spaced, without annotations, in one field', () => {
    const text =
      problem.question.toUpperCase().replace(/ /g, '   ') +
      '\n' +
      problem.answer!.replace(/<<[^>]*>>/g, '').toLowerCase();
    const [match] = matcher.match([{ path: '/text', text }]);
    expect(match).toMatchObject({ item: 0, question: 1, answer: 1 });
  });

  it('finds the question alone embedded in a longer answer, and points at it', () => {
    const intro = 'Here is a practice problem for you to try on your own before class starts. ';
    const text = `${intro}${problem.question} Take your time and show your work.`;
    const fields: TextField[] = [
      { path: '/messages/0/content', text: 'Give me a maths exercise.' },
      { path: '/messages/1/content', text },
    ];
    const [match] = matcher.match(fields);
    expect(match).toMatchObject({ item: 0, question: 1, answer: 0, path: '/messages/1/content' });
    expect(text.slice(...match!.span)).toBe(problem.question.replace(/\?$/, ''));
  });

  it('finds a question and its answer split over two turns', () => {
    const fields: TextField[] = [
      { path: '/messages/0/content', text: painter.question },
      { path: '/messages/1/content', text: painter.answer! },
    ];
    expect(matcher.match(fields)[0]).toMatchObject({ item: 1, question: 1, answer: 1 });
  });

  it('takes a short question as evidence only as a whole field, or with its answer', () => {
    // A field that is exactly the (specific) question.
    expect(matcher.match(qa(painter.question, 'I do not know.'))[0]?.evidence).toBe(true);
    // Embedded in longer text, the short question needs its answer beside it.
    const said = `My teacher asked: ${painter.question.toLowerCase()} Nobody knew.`;
    expect(matcher.match([{ path: '/text', text: said }]).some((m) => m.evidence)).toBe(false);
    // With its answer beside it, it is found inside the text too.
    const both = `My teacher asked: ${painter.question.toLowerCase()} ${painter.answer!}, I said.`;
    expect(matcher.match([{ path: '/text', text: both }])[0]).toMatchObject({
      item: 1,
      question: 1,
      evidence: true,
    });
    // Anyone's question ("Who are you?") never counts alone, even as a whole field.
    expect(matcher.match(qa(whoAreYou.question, 'I am a chatbot.'))[0]?.evidence).toBe(false);
    expect(matcher.match(qa(whoAreYou.question, whoAreYou.answer!))[0]?.evidence).toBe(true);
  });

  it('finds code however it is indented', () => {
    const reindented = `${code.question.replace(/ {4}/g, '\t')}${code.answer!.replace(/ {4}/g, '  ')}`;
    expect(matcher.match([{ path: '/text', text: reindented }])[0]).toMatchObject({
      item: 3,
      question: 1,
      answer: 1,
    });
  });

  it('finds nothing in unrelated text sharing a few words', () => {
    const text =
      'A baker makes bread each morning and sells most of it before noon. How many loaves are ' +
      'left at the end of the day depends on the weather.';
    expect(matcher.match([{ path: '/text', text }]).filter((m) => m.grams >= 3)).toEqual([]);
  });
});

describe('the merged index', () => {
  it('sizes its bucket table to about one bucket per entry, within bounds', () => {
    expect(bucketBits(0)).toBe(10);
    expect(bucketBits(550_000)).toBe(20);
    expect(bucketBits(1 << 20)).toBe(20);
    expect(bucketBits((1 << 20) + 1)).toBe(21);
    expect(bucketBits(1e9)).toBe(22);
  });

  // A few words, so items share n-grams and many keys share a bucket: every entry of a key must
  // be found, across sets, as one binary search per set finds them.
  const WORDS = ['red', 'blue', 'cat', 'dog', 'runs', 'sits', 'on', 'the', 'mat', 'fast', '7', '+'];
  const text = (min: number, max: number): fc.Arbitrary<string> =>
    fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));
  const item = fc.record({ question: text(20, 40), answer: text(20, 30) });
  const set = fc.array(item, { minLength: 1, maxLength: 25 });

  it('finds, for each item it reports, as many n-grams as a lookup per set does', () => {
    fc.assert(
      fc.property(
        fc.array(set, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        text(0, 30),
        text(0, 30),
        (sets, pick, before, after) => {
          // The row holds some item's question and answer between other words.
          const all = sets.flat();
          const held = all[pick % all.length] as EvalItem;
          const row = [before, held.question, held.answer, after].join(' ');
          const fingerprints = buildFingerprints(
            sets.map((items, s) => ({ name: `s${s}`, items })),
          );
          const found = new Map<string, Set<number>>();
          const keys = grams(tokenize(row), LONG_N);
          fingerprints.forEach((fp) => {
            for (let g = 0; g < keys.hi.length; g++) {
              forEachEntry(fp, keys.hi[g] as number, keys.lo[g] as number, (entry) => {
                const key = `${fp.name}:${(fp.refs[entry] as number) >>> 1}`;
                found.set(key, (found.get(key) ?? new Set()).add(entry));
              });
            }
          });
          const matches = new ContaminationMatcher(fingerprints).match([{ path: '/t', text: row }]);
          expect(new Set(matches.map((m) => m.set))).toEqual(
            new Set([...found.keys()].map((key) => key.split(':')[0])),
          );
          expect(matches.length).toBeGreaterThan(0);
          for (const m of matches) expect(m.grams).toBe(found.get(`${m.set}:${m.item}`)?.size);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a matcher given the index another matcher merged', () => {
  const sets = buildFingerprints([{ name: 'demo/test', items: ITEMS }]);
  const rows: TextField[][] = [
    qa(problem.question, problem.answer ?? ''),
    qa(`Tell me: ${painter.question}`, painter.answer ?? ''),
    [{ path: '/t', text: `${code.question}${code.answer ?? ''}` }],
    qa(whoAreYou.question, 'Nobody in particular.'),
    [{ path: '/t', text: 'Nothing of any benchmark here, only a sentence or two of its own.' }],
  ];

  it('finds what a matcher that merged its own finds, row after row', () => {
    const own = new ContaminationMatcher(sets);
    const given = new ContaminationMatcher(sets, new ContaminationMatcher(sets).sharedIndex());
    for (const row of [...rows, ...rows]) expect(given.match(row)).toEqual(own.match(row));
    expect(own.match(rows[0] as TextField[]).length).toBeGreaterThan(0);
  });

  it("across threads: a worker's matcher reads the shared index this thread merged", async () => {
    const index = matcher.sharedIndex();
    const script = new URL('./testing/match-with-index.ts', import.meta.url);
    const worker = new Worker(script, { workerData: { items: ITEMS, index, rows } });
    try {
      const [reply] = (await once(worker, 'message')) as [{ matches: unknown[]; shared: boolean }];
      expect(reply.shared).toBe(true);
      expect(reply.matches).toEqual(rows.map((row) => matcher.match(row)));
    } finally {
      await worker.terminate();
    }
  });

  it('refuses an index made from other sets', () => {
    const other = buildFingerprints([{ name: 'other/test', items: ITEMS.slice(0, 2) }]);
    const index = new ContaminationMatcher(other).sharedIndex();
    expect(() => new ContaminationMatcher(sets, index)).toThrow(/an index of \d+ entries/);
  });
});

describe('addRange', () => {
  const covered = (ranges: readonly number[], length: number): boolean[] => {
    const out = Array.from({ length }, () => false);
    for (let r = 0; r < ranges.length; r += 2) {
      for (let t = ranges[r] as number; t < (ranges[r + 1] as number); t++) out[t] = true;
    }
    return out;
  };

  it('covers the tokens of every range added, and merges side by side ranges into one', () => {
    const range = fc
      .tuple(fc.nat(60), fc.integer({ min: 1, max: 13 }))
      .map(([start, n]) => [start, start + n] as const);
    fc.assert(
      fc.property(fc.array(range, { maxLength: 40 }), (ranges) => {
        const merged: number[] = [];
        for (const [start, end] of ranges) addRange(merged, start, end);
        expect(covered(merged, 80)).toEqual(covered(ranges.flat(), 80));
        expect(merged.length).toBeLessThanOrEqual(ranges.length * 2);
      }),
      { numRuns: 500 },
    );
    // A slide's n-grams, one token apart: one range.
    const slid: number[] = [];
    for (let i = 0; i < 20; i++) addRange(slid, i, i + 8);
    expect(slid).toEqual([0, 27]);
  });
});
