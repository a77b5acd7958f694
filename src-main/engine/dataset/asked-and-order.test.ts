import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { duplicateWords, findDuplicates, verifyWords } from './duplicates.ts';
import { compareWords, contentMoved, kinship } from './template-siblings.ts';
import { mc, qa } from './testing/samples.ts';

/**
 * Two things the multiset of words does not see, and that templated
 * benchmarks and reading-comprehension sets are made of: another question
 * asked of the same passage (SQuAD, RACE, BoolQ, a table, a story), and the
 * same content tokens in another order (a route, who swaps with whom, a
 * boolean expression). Both are siblings, never duplicates; copies of such
 * rows are still found.
 */

async function codes(samples: Sample[]): Promise<string[]> {
  const { issues } = await findDuplicates(samples);
  return [...issues].flatMap(([, list]) => list.map((issue) => issue.code));
}

/** A SQuAD-style paragraph (well over sixty words), read by several questions. */
const PARAGRAPH =
  'The Normans were the people who in the 10th and 11th centuries gave their name to ' +
  'Normandy, a region in France. They were descended from Norse raiders and pirates from ' +
  'Denmark, Iceland and Norway who, under their leader Rollo, agreed to swear fealty to King ' +
  'Charles III of West Francia. Through generations of assimilation and mixing with the native ' +
  'Frankish and Roman-Gaulish populations, their descendants would gradually merge with the ' +
  'Carolingian-based cultures of West Francia. The distinct cultural and ethnic identity of ' +
  'the Normans emerged initially in the first half of the 10th century, and it continued to ' +
  'evolve over the succeeding centuries.';

const TABLE =
  'Here is a table where the first line is a header and each subsequent line is a penguin: ' +
  'name, age, height (cm), weight (kg)\nLouis, 7, 50, 11\nBernard, 5, 80, 13\nVincent, 9, 60, ' +
  '11\nGwen, 8, 70, 15\nFor example: the age of Louis is 7, the weight of Gwen is 15 kg, the ' +
  'height of Bernard is 80 cm. We then add a penguin to the table: James, 12, 90, 12. And here ' +
  'is a similar table, but listing giraffes: Jody, 5, 430, 620. Gladys, 10, 420, 590.\n';

describe('another question asked of the same passage', () => {
  it('takes SQuAD-style questions of one paragraph for siblings, whatever word they change', async () => {
    expect(
      await codes([
        qa(`${PARAGRAPH}\nIn what country is Normandy located?`, 'France'),
        qa(`${PARAGRAPH}\nIn what century is Normandy located?`, '10th'),
        qa(`${PARAGRAPH}\nFrom which countries did the Norse originate?`, 'Denmark'),
        qa(`${PARAGRAPH}\nFrom which countries did the raiders originate?`, 'Norway'),
      ]),
    ).toEqual([]);
  });

  it('takes a question about a table with one word changed for another question', async () => {
    const options = ['Louis', 'Bernard', 'Vincent', 'Gwen', 'James'];
    expect(
      await codes([
        mc(`${TABLE}What is the cumulated age of the giraffes?`, ['26', '29', '41'], 0),
        mc(`${TABLE}What is the cumulated age of the penguins?`, ['26', '29', '41'], 1),
        mc(`${TABLE}What is the cumulated age of the animals?`, ['26', '29', '41'], 2),
        mc(`${TABLE}What is the name of the last penguin sorted by alphabetic order?`, options, 2),
        mc(`${TABLE}What is the name of the fist penguin sorted by alphabetic order?`, options, 3),
        mc(`${TABLE}What is the shortest height?`, ['50', '80', '60'], 0),
        mc(`${TABLE}What is the height of Gwen?`, ['50', '80', '60'], 2),
      ]),
    ).toEqual([]);
  });

  it('still finds a copy whose passage lost or changed a word, and its conflicting label', async () => {
    const question = `${PARAGRAPH}\nIn what country is Normandy located?`;
    const { groups, issues } = await findDuplicates([
      qa(question, 'France'),
      qa(question.replace('gradually', 'slowly'), 'Italy'),
      qa(question.replace('pirates', 'pirats'), 'France'),
    ]);
    expect(groups).toEqual([expect.objectContaining({ rows: [0, 1, 2], label_conflict: true })]);
    expect(issues.get(1)?.map((i) => i.code)).toEqual(['near_duplicate', 'label_conflict']);
  });

  it('keeps a changed word a copy where the row is its question alone (no passage)', async () => {
    const question =
      'A farmer has 48 cows and buys twice as many sheep, then sells a tenth of all his ' +
      'animals at the market on Saturday. How many animals does the farmer keep?';
    const { groups } = await findDuplicates([
      qa(question, '#### 130'),
      qa(question.replace('keep?', 'have?'), '#### 130'),
      qa(
        'What happens to you if you eat watermelon seeds by accident while you are having a picnic with your friends in the park?',
        'Nothing',
      ),
      qa(
        'What happens to you if you swallow watermelon seeds by accident while you are having a picnic with your friends in the park?',
        'Nothing',
      ),
    ]);
    expect(groups.map((g) => g.rows)).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('marks the words of the question after a passage only', () => {
    const asked = (sample: Sample): string[] =>
      duplicateWords(sample)
        .map((w) => w.replace('\u0001', ''))
        .filter((w) => w.startsWith('\u0002'))
        .map((w) => w.slice(1));
    expect(asked(qa(`${PARAGRAPH}\nIn what country is Normandy located?`, 'France'))).toEqual([
      'in',
      'what',
      'country',
      'is',
      'normandy',
      'located',
    ]);
    expect(asked(qa('In what country is Normandy located?', 'France'))).toEqual([]);
  });
});

describe('content tokens in another order', () => {
  it('takes a route with its steps in another order for another route', async () => {
    const walk = (steps: string): string =>
      `If you follow these instructions, do you return to the starting point? ${steps}\n` +
      'Options:\n- Yes\n- No';
    expect(
      await codes([
        qa(
          walk(
            'Always face forward. Take 10 steps left. Take 10 steps right. Take 7 steps backward. Take 7 steps forward.',
          ),
          'Yes',
        ),
        qa(
          walk(
            'Always face forward. Take 7 steps forward. Take 7 steps backward. Take 10 steps backward. Take 10 steps forward.',
          ),
          'Yes',
        ),
        qa(walk('Take 6 steps. Take 4 steps. Turn around. Take 10 steps.'), 'Yes'),
        qa(walk('Take 10 steps. Turn around. Take 4 steps. Take 6 steps. Turn around.'), 'Yes'),
        qa(walk('Turn around. Take 4 steps. Turn around. Take 4 steps.'), 'Yes'),
        qa(walk('Turn left. Take 4 steps. Turn around. Take 4 steps.'), 'Yes'),
      ]),
    ).toEqual([]);
  });

  it('takes other people swapping, with one word of prose changed, for another question', async () => {
    const match = (last: string, swaps: string, who: string): string =>
      'Alice, Bob, and Claire are on the same team in a soccer match. At the start of the ' +
      'match, they are each assigned to a position: Alice is playing goalkeeper, Bob is playing ' +
      `left midfielder, and Claire is playing ${last}.\nAs the game progresses, pairs of players ` +
      `occasionally swap positions. ${swaps} At the end of the match, ${who} is playing`;
    expect(
      await codes([
        qa(
          match(
            'fullback',
            'First, Claire and Alice trade positions. Then, Alice and Bob trade positions. Finally, Bob and Claire trade positions.',
            'Bob',
          ),
          '(A)',
        ),
        qa(
          match(
            'striker',
            'First, Bob and Claire trade positions. Then, Bob and Alice trade positions. Finally, Claire and Alice trade positions.',
            'Bob',
          ),
          '(A)',
        ),
      ]),
    ).toEqual([]);
  });

  it('takes "and" for "or" between truth values for another expression, in prose for a word', async () => {
    expect(
      await codes([
        qa('not False and False or False or False is', 'False'),
        qa('not False and False and False or False is', 'False'),
        qa('x or y is true exactly when one of x and y is true', 'yes'),
        qa('x and y is true exactly when one of x and y is true', 'no'),
      ]),
    ).toEqual([]);
    const story =
      'Tom walked to the market on Monday and bought bread, cheese and apples for the picnic ' +
      'that his class had planned for the following weekend by the lake. What did Tom buy?';
    expect(
      await codes([qa(story, 'bread'), qa(story.replace('cheese and', 'cheese or'), 'bread')]),
    ).toEqual(['near_duplicate']);
  });

  it('sees content moved, and nothing moved when prose alone changes (property)', () => {
    // Distinct content tokens: pairs of tokens in a row cannot see every reordering of
    // repeated ones ("right right 7 right" and "right 7 right right" make the same pairs).
    const tokens = fc.uniqueArray(
      fc.constantFrom('7', '10', '3.5', 'left', 'right', 'north', '+', 'x', '=', 'sum'),
      { minLength: 2, maxLength: 10 },
    );
    const prose = fc.constantFrom('take', 'steps', 'the', 'then', 'walk', 'trade', 'ball');
    fc.assert(
      fc.property(
        tokens,
        fc.array(prose, { maxLength: 3 }),
        fc.array(prose, { minLength: 1, maxLength: 24 }),
        (content, between, otherProse) => {
          const text = (list: readonly string[], words: readonly string[]): string[] =>
            list.flatMap((token, i) => [token, words[i % words.length] ?? 'and']);
          const tagged = (words: string[]): Uint32Array => verifyWords(words).tagged;
          const original = tagged(text(content, between));
          expect(compareWords(original, original)).toMatchObject({
            contentA: 0,
            contentB: 0,
            proseA: 0,
            proseB: 0,
            pairsA: 0,
            pairsB: 0,
          });
          // Prose rewritten, content tokens where they were: nothing moved.
          expect(contentMoved(compareWords(original, tagged(text(content, otherProse))))).toBe(
            false,
          );
          // The content tokens reversed: moved, and another question.
          const diff = compareWords(original, tagged(text([...content].reverse(), between)));
          expect(contentMoved(diff)).toBe(true);
          expect(kinship(diff, true)).toBe('siblings');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts a word met with two kinds once on each side (the kind that matches first)', () => {
    // "did" is prose in the story and part of the question: the story's "does"/"did" is the
    // one difference, of prose, on each side.
    const story = (verb: string): string =>
      `The hedgehog ${verb} not know about the new norm, and both animals took a pencil at once. ` +
      'A polar bear then found the box empty and could not finish his homework that evening, ' +
      'which he had to hand in the next morning at school before the first lesson of the day ' +
      'began in the old classroom by the river, as the teacher had asked him to do every week. ' +
      'Did the hedgehog cause the problem?';
    const diff = compareWords(
      verifyWords(duplicateWords(qa(story('does'), 'No'))).tagged,
      verifyWords(duplicateWords(qa(story('did'), 'Yes'))).tagged,
    );
    expect(diff).toMatchObject({ proseA: 1, proseB: 1, contentA: 0, contentB: 0 });
  });
});
