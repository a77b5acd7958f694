import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gsm8k, oasst, truthfulQa } from '../../testing/real-data.ts';
import { whitespaceRule } from './formatting.ts';
import { backToBackRule, boilerplateRule, dropBackToBackRepeats } from './quality.ts';
import { repeatedLinesRule, repeatedNgramsRule, repeatedWordsRule } from './repetition.ts';

/** Real texts that hold no back-to-back repeat: the clean side of every property. */
const replies = oasst()
  .flatMap((c) => c.messages.map((m) => m.content))
  .filter((t) => backToBackRule.detect(t) === null);
const answers = gsm8k().map((s) => s.answer);
const questions = truthfulQa().map((s) => s.context);

const sentencesOf = (text: string): string[] =>
  text
    .match(/(?<=^|[.!?] |\n)[A-Z][^.!?\n]*[.!?](?=\s|$)/g)
    ?.filter((s) => s.split(' ').length >= 3) ?? [];

describe('repeated_sentences: a repeat back to back is a defect at any length', () => {
  it('finds a sentence said twice or more in a row and keeps one', () => {
    const text =
      'The cat sat on the mat. The cat sat on the mat. The cat sat on the mat. Then it left.';
    const finding = backToBackRule.detect(text);
    expect(finding?.count).toBe(1);
    // the span is what the repair drops: the copies after the first
    expect(text.slice(...(finding?.span ?? [0, 0]))).toBe(
      'The cat sat on the mat. The cat sat on the mat.',
    );
    expect(dropBackToBackRepeats(text)).toBe('The cat sat on the mat. Then it left.');
  });

  it('finds repeated lines and paragraphs, short ones too', () => {
    expect(dropBackToBackRepeats('Step one.\nStep one.\nStep two.')).toBe('Step one.\nStep two.');
    expect(dropBackToBackRepeats('x = 2 + 3 = 5\n#### 5\n#### 5')).toBe('x = 2 + 3 = 5\n#### 5');
    const paragraph = 'A first paragraph with words.\nIt has two lines.';
    expect(dropBackToBackRepeats(`${paragraph}\n\n${paragraph}\n\nEnd here.`)).toBe(
      `${paragraph}\n\nEnd here.`,
    );
  });

  it('finds the clause after a title or a label said again as a sentence of its own', () => {
    // Alpaca, Dolly and ShareGPT replies: a title or a quoted term, then its clause twice.
    for (const [text, kept] of [
      [
        'Apple Inc.: Designing, Developing and Selling Consumer Electronics. Designing, Developing and Selling Consumer Electronics.',
        'Apple Inc.: Designing, Developing and Selling Consumer Electronics.',
      ],
      [
        '3. "Head over heels" - This phrase means someone is deeply in love. This phrase means someone is deeply in love.\n4. Next.',
        '3. "Head over heels" - This phrase means someone is deeply in love.\n4. Next.',
      ],
    ] as const) {
      expect(backToBackRule.detect(text), text).not.toBeNull();
      expect(dropBackToBackRepeats(text), text).toBe(kept);
    }
    // A clause that only ends like the next sentence, with no label before it, is no repeat.
    const apart = 'We went home because it rained all day. It rained all day.';
    expect(backToBackRule.detect(apart)).toBeNull();
  });

  it('leaves alone what is not a repeat: short exclamations, rules, code, repeats apart', () => {
    for (const text of [
      'No. No. No.',
      'Go! Go!',
      '---\n---\nText.',
      '```\nprint(1)\nprint(1)\n```',
      'Run `a = 1. a = 1.` twice.',
      '    x += 1;\n    x += 1;',
      'It rained today. The sun came out. It rained today.',
      'Row, row, row your boat.',
      '\\begin{align*}\na^2 + b^2 &= b, \\\\\n2ab &= a, \\\\\n2ab &= a, \\\\\na^2 + b^2 &= b.\n\\end{align*}',
    ]) {
      expect(backToBackRule.detect(text), text).toBeNull();
      expect(dropBackToBackRepeats(text)).toBe(text);
    }
  });

  it('takes a counted step said twice in a line of steps for a step done twice', () => {
    const route =
      'If you follow these instructions, do you return to the starting point? Always face ' +
      'forward. Take 7 steps backward. Take 7 steps backward. Take 4 steps left. Take 10 steps forward.';
    expect(backToBackRule.detect(route)).toBeNull();
    expect(dropBackToBackRepeats(route)).toBe(route);
    const back =
      'If you follow these instructions, do you return to the starting point? Turn around. ' +
      'Take 4 steps. Turn around. Take 4 steps.';
    expect(backToBackRule.detect(back)).toBeNull();
    // outside a line of steps, or a sentence longer than a step, a repeat is still a repeat
    for (const text of [
      'Take 7 steps backward. Take 7 steps backward.',
      'It costs $3 x 5 = $15. It costs $3 x 5 = $15. It costs $3 x 5 = $15. It costs $3 x 5 = $15.',
      'We walked 7 miles along the river that day. We walked 7 miles along the river that day. ' +
        'Then we rested. It was late. We slept.',
    ]) {
      expect(backToBackRule.detect(text), text).not.toBeNull();
    }
  });

  it('is silent on the real datasets as they are', () => {
    const flagged = [...answers, ...questions].filter((t) => backToBackRule.detect(t) !== null);
    expect(flagged).toEqual([]);
  });

  it('property: a repeat inserted into clean real text is removed exactly', () => {
    const hosts = [...replies, ...answers].filter(
      (t) => !t.includes('```') && sentencesOf(t).length > 0,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...hosts),
        fc.nat(),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('sentence', 'line', 'paragraph'),
        (text, pick, times, level) => {
          let dirty: string;
          if (level === 'sentence') {
            const list = sentencesOf(text);
            const sentence = list[pick % list.length] ?? '';
            const at = text.indexOf(sentence) + sentence.length;
            dirty = text.slice(0, at) + ` ${sentence}`.repeat(times) + text.slice(at);
          } else {
            const separator = level === 'line' ? '\n' : '\n\n';
            const parts = text.split(separator);
            const i = pick % parts.length;
            const part = parts[i] ?? '';
            if (!/[\p{L}\p{N}]/u.test(part) || part.trim().length < 5 || /^\s/.test(part)) return;
            parts.splice(i, 0, ...Array<string>(times).fill(part));
            dirty = parts.join(separator);
          }
          expect(backToBackRule.detect(dirty)).not.toBeNull();
          expect(dropBackToBackRepeats(dirty)).toBe(text);
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('property: the repair never changes text inside code fences', () => {
    const code = fc.array(fc.constantFrom('x = 1;', 'x = 1;', 'Same line here.', '  indent', ''), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.constantFrom(...questions), code, (prose, lines) => {
        const block = `\`\`\`\n${lines.join('\n')}\n\`\`\``;
        const text = `${prose} ${prose}\n${block}\n${prose}`;
        const fixed = dropBackToBackRepeats(text);
        expect(fixed).toContain(block);
        expect(fixed).toBe(`${prose}\n${block}\n${prose}`);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('Gopher repetition', () => {
  it('warns when duplicate lines or paragraphs make up much of a text', () => {
    const line = 'Buy cheap watches online today at the best price.';
    const text = [
      line,
      'Other words here for the page.',
      line,
      'More words again here.',
      line,
    ].join('\n');
    expect(repeatedLinesRule.detect(text)).not.toBeNull();
    expect(repeatedLinesRule.detect(answers[0] ?? '')).toBeNull();
  });

  it('warns when repeated 5- to 10-word phrases cover much of a text', () => {
    const phrase = 'click the button below to learn more about our offer';
    const filler = replies.find((r) => r.length > 800) ?? '';
    const text = `${filler.slice(0, 600)} ${phrase}. ${filler.slice(600, 900)} ${phrase}. ${phrase}. ${phrase}.`;
    expect(repeatedNgramsRule.detect(text)?.example).toMatch(/repeated|click/);
    const quiet = replies.filter((r) => repeatedNgramsRule.detect(r) !== null);
    expect(quiet.length).toBeLessThan(replies.length * 0.05);
  });

  it('lets a reply restate its opening in its conclusion, but not say it three times or paste itself twice', () => {
    const opening =
      'Quantum gravity is a field of theoretical physics that aims to unify quantum mechanics ' +
      'and general relativity into a single theory of everything.';
    const body = (replies.find((r) => r.length > 1200) ?? '').slice(0, 1100);
    // An essay (Dolly, ShareGPT, OASST, Alpaca replies): "In conclusion," and the first sentence.
    const essay = `${opening} ${body}\n\nIn conclusion, ${opening.toLowerCase()}`;
    expect(repeatedNgramsRule.detect(essay)).toBeNull();
    expect(repeatedNgramsRule.detect(`${essay} To repeat: ${opening}`)).not.toBeNull();
    const pasted = `${opening} ${body.slice(0, 400)}`;
    expect(repeatedNgramsRule.detect(`${pasted}\n\n${pasted}`)).not.toBeNull();
  });
});

describe('boilerplate', () => {
  it('finds web boilerplate lines and leaked code braces', () => {
    expect(boilerplateRule.detect('Great recipe.\nPlease enable JavaScript\nMore.')).not.toBeNull();
    expect(boilerplateRule.detect('Text.\nPrivacy Policy | Terms of Use\n')).not.toBeNull();
    expect(boilerplateRule.detect('Nice page. body { color: red; } More text.')).not.toBeNull();
  });

  it('does not mind JavaScript, sets, LaTeX or a privacy policy as a topic', () => {
    for (const text of [
      'JavaScript is a programming language used on the web.',
      'Let A = {1, 2, 3} and B = {x : x > 0}.',
      'The fraction \\frac{a}{b} simplifies.',
      'A privacy policy explains how a company uses your data.',
      '```css\nbody { color: red; }\n```',
    ]) {
      expect(boilerplateRule.detect(text), text).toBeNull();
    }
  });

  it('reads a table as cells, not as lines of prose without an end mark', () => {
    const rows = [
      'Ada Lovelace | mathematician and writer | London, England | the first published algorithm',
      'Alan Turing | mathematician and computer scientist | London, England | the Turing machine',
      'Grace Hopper | computer scientist and admiral | New York City | the first compiler there was',
      'John von Neumann | mathematician and physicist | Budapest, Hungary | the stored program computer',
      'Claude Shannon | mathematician and engineer | Petoskey, Michigan | the theory of communication',
      'Edsger Dijkstra | computer scientist and teacher | Rotterdam | the shortest path algorithm',
      'Donald Knuth | computer scientist and author | Milwaukee | The Art of Computer Programming',
      'Barbara Liskov | computer scientist and professor | Los Angeles | the substitution principle',
    ];
    const head =
      'Here is a table of pioneers:\n\nName | Field | Born | Known for\n--- | --- | --- | ---\n';
    // Markdown without outer pipes, and with them
    expect(boilerplateRule.detect(head + rows.join('\n'))).toBeNull();
    expect(boilerplateRule.detect(head + rows.map((r) => `| ${r} |`).join('\n'))).toBeNull();
    // the same words as lines of prose without an end mark are still scraped debris
    expect(
      boilerplateRule.detect(head + rows.map((r) => r.replaceAll(' |', ',')).join('\n')),
    ).not.toBeNull();
  });
});

describe('whitespace: runs of spaces and trailing whitespace, repaired exactly', () => {
  const fixWhitespace = (t: string): string => whitespaceRule.fix?.(t) ?? t;

  it('property: runs of spaces and line-end whitespace inserted into clean text are removed exactly', () => {
    const hosts = [...answers, ...questions, ...replies].filter(
      (t) =>
        !t.includes('```') &&
        !/ {2}|\t|[ \t]\n|^\s|\s$/.test(t) &&
        whitespaceRule.detect(t) === null,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...hosts),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 2, max: 5 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.boolean(),
        (text, runs, trailing) => {
          const gaps = [...text.matchAll(/(?<=[\p{L}\p{N},;:])( )(?=[\p{L}\p{N}])/gu)].map(
            (m) => m.index,
          );
          if (gaps.length === 0) return;
          const chosen = new Map(runs.map(([at, n]) => [gaps[at % gaps.length] ?? 0, n]));
          let dirty = '';
          let cursor = 0;
          for (const [at, n] of [...chosen].sort((a, b) => a[0] - b[0])) {
            dirty += text.slice(cursor, at) + ' '.repeat(n);
            cursor = at + 1;
          }
          dirty += text.slice(cursor);
          if (trailing) dirty = dirty.replace(/\n/g, ' \t\n');
          expect(whitespaceRule.detect(dirty)).not.toBeNull();
          expect(fixWhitespace(dirty)).toBe(text);
        },
      ),
      { numRuns: 400, seed: 21 },
    );
  });

  it('property: the repair never changes text inside code fences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a  =  1   ', '\tb = 2', '', '    c  ', 'x   y'), {
          maxLength: 5,
        }),
        fc.constantFrom(...questions),
        (lines, prose) => {
          const block = `\`\`\`\n${lines.join('\n')}\n\`\`\``;
          const fixed = fixWhitespace(`${prose}   \n${block}\n  ${prose}  `);
          expect(fixed).toContain(block);
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});

describe('repeated_words: a stutter, not a negation stacked in a formula', () => {
  it('leaves "not not not False" alone and still repairs "the the the"', () => {
    for (const text of ['not not not not False is', 'True and not not not ( False ) is']) {
      expect(repeatedWordsRule.detect(text), text).toBeNull();
    }
    const mixed = 'It is the the the answer: not not not True is False.';
    expect(repeatedWordsRule.detect(mixed)?.count).toBe(1);
    expect(repeatedWordsRule.fix?.(mixed)).toBe('It is the answer: not not not True is False.');
    expect(repeatedWordsRule.detect('I will not not not go there.')).not.toBeNull();
  });
});
