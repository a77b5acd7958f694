import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationSample, Sample } from '../../../src-shared/schemas/sample.ts';
import { oasstTree } from '../testing/oasst-tree.ts';
import { readJsonl } from '../testing/real-data.ts';
import { everyRoute, oasstPaths, writeOasstPaths, type PathRepair } from './oasst-paths.ts';

type Row = Record<string, unknown>;

/** Rank 0 is best; m3 (rank 0) has two follow-ups, the second answered twice. */
const tree = oasstTree;

const contents = (sample: Sample): string[] =>
  (sample as ConversationSample).messages.map((m) => m.content);

/** Each path's sample with `edit` applied to every message's text. */
function edited(row: Row, edit: (text: string) => string, label = 'row'): PathRepair[] {
  return oasstPaths(row).map(({ route, sample }, i) => {
    const conversation = sample as ConversationSample;
    const messages = conversation.messages.map((m) => ({ ...m, content: edit(m.content) }));
    const same = messages.every((m, j) => m.content === conversation.messages[j]?.content);
    return { route, sample: same ? null : { ...conversation, messages }, label: `${label} ${i}` };
  });
}

describe('OASST trees, every path', () => {
  it('reads each root-to-leaf path, best-ranked replies first, with the passthrough', () => {
    const paths = oasstPaths(tree());
    expect(paths.map((p) => p.route)).toEqual([[1, 0], [1, 1, 1], [1, 1, 0], [0]]);
    expect(paths.map((p) => contents(p.sample))).toEqual([
      ['What is 2 + 2?', 'Four.', 'Why?'],
      ['What is 2 + 2?', 'Four.', 'And 3 + 3?', 'Six.'],
      ['What is 2 + 2?', 'Four.', 'And 3 + 3?', 'Seven.'],
      ['What is 2 + 2?', 'Five.'],
    ]);
    for (const { sample } of paths) expect(sample).toMatchObject({ message_tree_id: 't1' });
    expect((paths[0]?.sample as ConversationSample).messages[2]?.role).toBe('user');
  });

  it('names a bad node anywhere in the tree, not only along the best path', () => {
    const row = tree();
    ((row.prompt as Row).replies as Row[])[0] = { text: 7, role: 'assistant' };
    expect(() => oasstPaths(row)).toThrow(/prompt\.replies\[0\]\.text" must be a string/);
    expect(everyRoute('nope')).toMatch(/"prompt" must be a message object/);
  });

  it('writes nothing when no path changed: the very row comes back', () => {
    const row = tree();
    const { row: back, problems } = writeOasstPaths(
      row,
      edited(row, (t) => t),
    );
    expect(back).toBe(row);
    expect(problems.every((p) => p === undefined)).toBe(true);
  });

  it('writes a message shared by every path once, when they repair it alike', () => {
    const row = tree();
    const { row: back, problems } = writeOasstPaths(
      row,
      edited(row, (t) => t.replace('2 + 2', '2+2')),
    );
    expect(problems).toEqual([undefined, undefined, undefined, undefined]);
    expect((back.prompt as Row).text).toBe('What is 2+2?');
    expect(oasstPaths(back).map((p) => contents(p.sample)[0])).toEqual(
      Array(4).fill('What is 2+2?'),
    );
    // Only that message changed; the input row is untouched.
    const again = structuredClone(back);
    (again.prompt as Row).text = 'What is 2 + 2?';
    expect(again).toEqual(tree());
    expect((row.prompt as Row).text).toBe('What is 2 + 2?');
  });

  it('writes neither of two different repairs of one message, and keeps the others', () => {
    const row = tree();
    const parts = edited(row, (t) => t);
    const [why, six, , five] = oasstPaths(row);
    const repaired = (sample: Sample, at: number, text: string): Sample => {
      const messages = (sample as ConversationSample).messages.map((m, i) =>
        i === at ? { ...m, content: text } : m,
      );
      return { ...(sample as ConversationSample), messages };
    };
    // Paths 0 and 1 share "Four.", which they repair differently; path 3 repairs "Five." alone.
    parts[0] = { ...parts[0], sample: repaired(why!.sample, 1, 'Four!') } as PathRepair;
    parts[1] = { ...parts[1], sample: repaired(six!.sample, 1, '4.') } as PathRepair;
    parts[3] = { ...parts[3], sample: repaired(five!.sample, 1, 'Five!') } as PathRepair;
    const { row: back, problems } = writeOasstPaths(row, parts);
    expect(problems[0]).toMatch(/prompt\.replies\[1\] is shared with row 1, which repaired it/);
    expect(problems[1]).toMatch(/shared with row 0/);
    expect(problems[2]).toBeUndefined();
    expect(problems[3]).toBeUndefined();
    const texts = oasstPaths(back).map((p) => contents(p.sample).slice(0, 2));
    expect(texts).toEqual([
      ['What is 2 + 2?', 'Four.'],
      ['What is 2 + 2?', 'Four.'],
      ['What is 2 + 2?', 'Four.'],
      ['What is 2 + 2?', 'Five!'],
    ]);
  });

  it('refuses merged or dropped turns in a shared tree, but takes them in a tree of one path', () => {
    const row = tree();
    const parts = edited(row, (t) => t);
    const [first] = oasstPaths(row);
    const short = {
      ...(first!.sample as ConversationSample),
      messages: (first!.sample as ConversationSample).messages.slice(0, 2),
    };
    parts[0] = { ...parts[0], sample: short } as PathRepair;
    const { row: back, problems } = writeOasstPaths(row, parts);
    expect(problems[0]).toMatch(/turns the path's 3 messages into 2/);
    expect(back).toEqual(tree());

    const single = { prompt: { text: 'Hi', role: 'prompter', replies: [] as Row[] } };
    single.prompt.replies.push({ text: 'Hello.', role: 'assistant', replies: [] });
    const [only] = oasstPaths(single);
    const longer = {
      ...(only!.sample as ConversationSample),
      messages: [...(only!.sample as ConversationSample).messages, { role: 'user', content: 'Ok' }],
    };
    const written = writeOasstPaths(single, [{ route: only!.route, sample: longer, label: 'x' }]);
    expect(written.problems).toEqual([undefined]);
    expect(contents(oasstPaths(written.row)[0]!.sample)).toEqual(['Hi', 'Hello.', 'Ok']);
  });

  it('reads 626 paths from the 100 real trees, each ending on a leaf, and writes them back', () => {
    const rows = readJsonl('oasst_en_100_trees.jsonl');
    let total = 0;
    for (const row of rows) {
      const paths = oasstPaths(row);
      total += paths.length;
      const { row: back } = writeOasstPaths(
        row,
        edited(row, (t) => t.toUpperCase()),
      );
      const again = oasstPaths(back);
      expect(again.map((p) => p.route)).toEqual(paths.map((p) => p.route));
      again.forEach((p, i) =>
        expect(contents(p.sample)).toEqual(contents(paths[i]!.sample).map((t) => t.toUpperCase())),
      );
    }
    expect(total).toBe(626);
  });

  it('walks a very deep tree without overflowing the stack', () => {
    let node: Row = { text: 'last', role: 'assistant' };
    for (let depth = 0; depth < 50_000; depth++) {
      node = { text: `turn ${depth}`, role: depth % 2 ? 'assistant' : 'prompter', replies: [node] };
    }
    const [path] = oasstPaths({ prompt: node });
    expect(contents(path!.sample)).toHaveLength(50_001);
  });
});

/** Random trees: a node with up to three replies, a few levels deep. */
const nodeArb: fc.Arbitrary<Row> = fc.letrec<{ node: Row }>((tie) => ({
  node: fc.record({
    text: fc.string({ maxLength: 8 }),
    role: fc.constantFrom('prompter', 'assistant'),
    rank: fc.option(fc.nat(3), { nil: undefined }),
    replies: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant([]),
      fc.array(tie('node'), { maxLength: 3 }),
    ),
  }),
})).node;

describe('OASST every-path write-back, property', () => {
  it('a repair that is a function of the text reads back on every path, each node once', () => {
    fc.assert(
      fc.property(nodeArb, fc.string({ maxLength: 3 }), (prompt, suffix) => {
        const row = { id: 1, prompt };
        const before = oasstPaths(row);
        const edit = (text: string): string => text + suffix;
        const { row: back, problems } = writeOasstPaths(row, edited(row, edit));
        expect(problems.every((p) => p === undefined)).toBe(true);
        const after = oasstPaths(back);
        expect(after.map((p) => p.route)).toEqual(before.map((p) => p.route));
        after.forEach((p, i) =>
          expect(contents(p.sample)).toEqual(contents(before[i]!.sample).map(edit)),
        );
      }),
      { numRuns: 300 },
    );
  });
});
