import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import { commonsenseQa, gsm8k, oasst, truthfulQa } from './testing/real-data.ts';
import { fix } from './testing/run.ts';

/**
 * Properties of the fix stage over real samples with random defects injected
 * (and over arbitrary Unicode text): the patch is exact, fixing is
 * idempotent, never-worse holds, and passthrough keys survive.
 */

const mojibake = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const defects: ((s: string, n: number) => string)[] = [
  (s) => s,
  (s) => `${s}  café`,
  (s) => mojibake(`${s} — déjà vu`),
  (s) => `<b>${s}</b>`,
  (s) => `${s} &amp; more`,
  (s) => `${s} contact: lee.kim@yahoo.com`,
  (s) => `\u0093${s}\u0094`,
  (s, n) => `${s} ${'again '.repeat(3 + (n % 3)).trim()}`,
  (s) => ` ${s}\r\n`,
  (s) => `${s} \ufffd`,
];

const text = fc.oneof(
  fc.constantFrom(
    ...truthfulQa()
      .map((s) => s.context)
      .slice(0, 50),
  ),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const defect = fc.tuple(fc.integer({ min: 0, max: defects.length - 1 }), fc.nat()).map(
  ([i, n]) =>
    (s: string) =>
      (defects[i] ?? defects[0]!)(s, n),
);

const passthrough = fc.dictionary(
  fc
    .string({ minLength: 1, maxLength: 8 })
    .filter(
      (k) =>
        ![
          'task_type',
          'text',
          'context',
          'choices',
          'answer_index',
          'style',
          'question',
          'answer',
          'messages',
          'turns',
          'audit',
          'fix',
          'reaudit',
          '__proto__',
        ].includes(k),
    ),
  // As it arrives: samples travel as JSON, which has no -0 (fast-check's jsonValue does).
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
  { maxKeys: 3 },
);

const mc = commonsenseQa().slice(0, 60);
const qa = gsm8k().slice(0, 60);
const chats = oasst().slice(0, 30);

const sampleArb: fc.Arbitrary<Sample> = fc.oneof(
  fc
    .tuple(text, defect, passthrough)
    .map(([t, d, extra]) => ({ ...extra, task_type: 'text' as const, text: d(t) })),
  fc
    .tuple(fc.constantFrom(...mc), defect, fc.boolean(), passthrough)
    .map(([s, d, duplicate, extra]) => ({
      ...extra,
      ...s,
      context: d(s.context),
      choices: duplicate ? [...s.choices, ` ${s.choices[0] ?? ''}`] : s.choices,
    })),
  fc.tuple(fc.constantFrom(...qa), fc.nat({ max: 5 }), passthrough).map(([s, bump, extra]) => ({
    ...extra,
    ...s,
    answer: s.answer.replace(/<<([^=<>]+)=(\d+)>>\2/, (_m, e: string, r: string) => {
      const v = String(Number(r) + bump);
      return `<<${e}=${v}>>${v}`;
    }),
  })),
  fc
    .tuple(
      fc.constantFrom(...chats),
      defect,
      fc.constantFrom('user', 'Human', 'gpt', 'assistant'),
      passthrough,
    )
    .map(([c, d, role, extra]) => ({
      ...extra,
      ...c,
      messages: [{ role, content: d(c.messages[0]?.content ?? '') }, ...c.messages.slice(1)],
    })),
);

const settings = { numRuns: 150 };

describe('fix properties', () => {
  it('applying `changes` to the input gives exactly the output', async () => {
    await fc.assert(
      fc.asyncProperty(sampleArb, async (sample) => {
        const { outcomes } = await fix([sample]);
        const outcome = outcomes[0]!;
        const ops = (outcome.fix?.changes ?? []).map(({ op, path, value }) =>
          op === 'remove' ? { op, path } : { op, path, value },
        ) as jsonPatch.Operation[];
        const patched = jsonPatch.applyPatch(structuredClone(sample), ops, true, false).newDocument;
        expect(patched).toEqual(outcome.output);
        // and `old` records what was there before each operation
        let doc: unknown = structuredClone(sample);
        for (const change of outcome.fix?.changes ?? []) {
          expect(jsonPatch.getValueByPointer(doc, change.path)).toEqual(change.old);
          doc = jsonPatch.applyOperation(
            doc,
            ops[(outcome.fix?.changes ?? []).indexOf(change)]!,
            true,
            false,
          ).newDocument;
        }
      }),
      settings,
    );
  });

  // A flagged fix is not a fixed sample: when the full repair was turned down by never-worse
  // (it exposed a new warning) and a partial one was kept, fixing the partial output again may
  // rightly go further, its baseline being different. What a fix leaves unflagged is final.
  it('fixing a fixed sample changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(sampleArb, async (sample) => {
        const first = await fix([sample]);
        fc.pre(first.outcomes[0]?.fix?.flagged !== true);
        const second = await fix([first.outcomes[0]!.output]);
        expect(second.outcomes[0]?.fix?.changes ?? []).toEqual([]);
        expect(second.outcomes[0]?.output).toEqual(first.outcomes[0]?.output);
      }),
      settings,
    );
  });

  it('never-worse: no check that passed fails, no score drops', async () => {
    await fc.assert(
      fc.asyncProperty(sampleArb, async (sample) => {
        const { outcomes } = await fix([sample]);
        const { before, after } = outcomes[0]!;
        if (!after) return;
        for (const [name, was] of Object.entries(before.checks)) {
          const now = after.checks[name]!;
          expect(now.score).toBeGreaterThanOrEqual(was.score);
          if (was.passed === true) expect(now.passed).not.toBe(false);
        }
      }),
      settings,
    );
  });

  it('passthrough keys come back untouched', async () => {
    await fc.assert(
      fc.asyncProperty(sampleArb, async (sample) => {
        const { outcomes } = await fix([sample]);
        const output = outcomes[0]!.output as Record<string, unknown>;
        const own = new Set([
          'text',
          'context',
          'choices',
          'answer_index',
          'question',
          'answer',
          'messages',
        ]);
        for (const [key, value] of Object.entries(sample)) {
          if (!own.has(key)) expect(output[key]).toEqual(value);
        }
      }),
      settings,
    );
  });
});
