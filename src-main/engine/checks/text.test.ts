import { describe, expect, it } from 'vitest';
import type { TextSample } from '../../../src-shared/schemas/sample.ts';
import { asText, oasst, truthfulQa } from '../testing/real-data.ts';
import { audit, fix } from '../testing/run.ts';

/** Real sentences to inject defects into: TruthfulQA questions and OASST replies. */
const sentences = truthfulQa()
  .map((s) => s.context)
  .slice(0, 40);
const replies = oasst()
  .flatMap((c) => c.messages.filter((m) => m.role === 'assistant').map((m) => m.content))
  .slice(0, 40);

interface Injection {
  name: string;
  code: string;
  dimension: string;
  inject: (text: string) => string;
  /** What the repaired text must equal, given the original. */
  repaired: (text: string) => string;
}

const injections: Injection[] = [
  {
    name: 'mojibake',
    code: 'mojibake',
    dimension: 'fluency',
    inject: (t) =>
      `${t} Café “crème” — très bien.`.replace(/[^\u0000-\u007f]/g, (c) =>
        Buffer.from(c, 'utf8').toString('latin1'),
      ),
    repaired: (t) => `${t} Café “crème” — très bien.`,
  },
  {
    name: 'an HTML tag and entity',
    code: 'markup_debris',
    dimension: 'formatting',
    inject: (t) => `<p>${t}</p> Tom &amp; Jerry`,
    repaired: (t) => `${t} Tom & Jerry`,
  },
  {
    name: 'an e-mail address',
    code: 'pii_email',
    dimension: 'safety',
    inject: (t) => `${t} Write to maria.lopez@gmail.com today.`,
    repaired: (t) => `${t} Write to [EMAIL] today.`,
  },
  {
    name: 'a phone number',
    code: 'pii_phone',
    dimension: 'safety',
    inject: (t) => `${t} Call (415) 555-2671 now.`,
    repaired: (t) => `${t} Call [PHONE] now.`,
  },
  {
    name: 'a card number (Luhn-valid)',
    code: 'pii_card',
    dimension: 'safety',
    inject: (t) => `${t} Card 4111 1111 1111 1111 on file.`,
    repaired: (t) => `${t} Card [CARD] on file.`,
  },
  {
    name: 'an API key',
    code: 'secret',
    dimension: 'safety',
    inject: (t) => `${t} key=sk-proj-a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT`,
    repaired: (t) => `${t} key=[SECRET]`,
  },
  {
    name: 'control characters',
    code: 'control_chars',
    dimension: 'fluency',
    inject: (t) => `\u0093${t}\u0094\u0007`,
    repaired: (t) => `“${t}”`,
  },
  {
    name: 'a stutter',
    code: 'repeated_words',
    dimension: 'coherence',
    inject: (t) => `${t} It is the the the answer.`,
    repaired: (t) => `${t} It is the answer.`,
  },
];

describe('text: defects injected into real text are found and repaired', () => {
  it.each(injections)('$name', async (injection) => {
    const samples: TextSample[] = sentences.map((s) => asText(injection.inject(s)));
    const { blocks } = await audit(samples);
    for (const block of blocks) {
      const verdict = block.checks[injection.dimension];
      expect(verdict?.issues.map((i) => i.code)).toContain(injection.code);
      expect(verdict?.passed).toBe(false);
    }
    const { outcomes } = await fix(samples);
    outcomes.forEach((outcome, i) => {
      expect(outcome.output).toEqual(asText(injection.repaired(sentences[i] ?? '')));
      expect(outcome.fix?.flagged).toBe(false);
      expect(outcome.after?.passed).toBe(true);
    });
  });

  it('passes clean real text on all four dimensions', async () => {
    const { blocks } = await audit(sentences.map(asText));
    for (const block of blocks) {
      expect(Object.keys(block.checks).sort()).toEqual([
        'coherence',
        'fluency',
        'formatting',
        'safety',
      ]);
      expect(block.passed).toBe(true);
    }
  });

  it('repairs whitespace debris in real replies without touching their words', async () => {
    const dirty = replies.map((r) => asText(`  ${r.replace(/\. /g, '.  ')}   \r\n`));
    const { outcomes } = await fix(dirty);
    for (const [i, outcome] of outcomes.entries()) {
      const text = (outcome.output as TextSample).text;
      expect(text.replace(/\s+/g, ' ')).toBe((replies[i] ?? '').trim().replace(/\s+/g, ' '));
    }
  });

  it('flags what it cannot repair: text lost to U+FFFD', async () => {
    const { outcomes } = await fix([asText('The price is 5 \ufffd per item.')]);
    expect(outcomes[0]?.fix?.flagged).toBe(true);
    expect(outcomes[0]?.output).toEqual(asText('The price is 5 \ufffd per item.'));
  });

  it('gives a clean text sample no fix block', async () => {
    const { outcomes } = await fix([asText('A clean sentence.')]);
    expect(outcomes[0]?.fix).toBeUndefined();
  });
});
