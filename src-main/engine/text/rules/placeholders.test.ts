import { describe, expect, it } from 'vitest';
import type { ConversationSample } from '../../../../src-shared/schemas/sample.ts';
import { rowToSample, sampleToRow } from '../../shapes/index.ts';
import { audit, fix } from '../../testing/run.ts';
import { gsm8k, oasst } from '../../testing/real-data.ts';
import type { RuleContext } from '../rule.ts';
import { placeholderRule, refusalRule, restatesPrompt } from './placeholders.ts';

const at = (path: string, role?: string): RuleContext => ({
  freeText: path === '/text' || path.startsWith('/messages/'),
  path,
  role,
});

describe('placeholder', () => {
  it('finds unmistakable placeholders in any field', () => {
    for (const text of ['Noinput', 'No input.', '"<noinput>"', '<No Input>', 'TODO', 'TBD.']) {
      for (const path of ['/text', '/answer', '/choices/1', '/messages/1/content']) {
        expect(placeholderRule.detect(text, at(path)), `${text} at ${path}`).not.toBeNull();
      }
    }
    expect(placeholderRule.detect('Dear [insert name here], thanks.', at('/text'))).not.toBeNull();
    expect(placeholderRule.detect('Hello {{name}}, welcome!', at('/text'))).not.toBeNull();
    expect(placeholderRule.detect('Lorem ipsum dolor sit amet.', at('/text'))).not.toBeNull();
  });

  it('takes "none", "null" and "N/A" as answers where an answer may be one', () => {
    for (const text of ['None', 'null', 'N/A', 'none.']) {
      expect(placeholderRule.detect(text, at('/answer')), text).toBeNull();
      expect(placeholderRule.detect(text, at('/choices/3')), text).toBeNull();
      expect(placeholderRule.detect(text, at('/messages/0/content', 'user')), text).not.toBeNull();
      expect(placeholderRule.detect(text, at('/question')), text).not.toBeNull();
      expect(placeholderRule.detect(text, at('/text')), text).not.toBeNull();
    }
    // a reply of "None" may answer its question; "N/A" answers nothing
    for (const role of ['assistant', undefined]) {
      expect(placeholderRule.detect('None.', at('/messages/1/content', role))).toBeNull();
      expect(placeholderRule.detect('N/A', at('/messages/1/content', role))).not.toBeNull();
    }
  });

  it('leaves texts about lorem ipsum and ordinary brackets alone', () => {
    for (const text of [
      'Lorem ipsum is placeholder text used in publishing.',
      'The set [1, 2, 3] has three elements.',
      'None of the above.',
      'There is no input validation in this function.',
      // LaTeX's double braces, and the slots of a format an instruction sets out
      'Define \\[\\text{{D}}(a,b,c)=\\frac{abc}{a+b+c}.\\] Find $\\text{{D}}(2,4,6)$.',
      'Then $x^{{n}}$ grows.',
      'Write a planning doc. Follow the exact format below:\n\nPart 1. Task Summary\n[put details here]',
    ]) {
      expect(placeholderRule.detect(text, at('/text')), text).toBeNull();
    }
  });

  it('is silent on GSM8K and OASST as they are', () => {
    const fields = [
      ...gsm8k().flatMap((s) => [
        placeholderRule.detect(s.question, at('/question')),
        placeholderRule.detect(s.answer, at('/answer')),
      ]),
      ...oasst().flatMap((c) =>
        c.messages.map((m, i) => placeholderRule.detect(m.content, at(`/messages/${i}/content`))),
      ),
    ];
    expect(fields.filter((f) => f !== null)).toEqual([]);
  });

  it('empties a placeholder input of an Alpaca row, and only that', async () => {
    const clean = {
      instruction: 'Name three primary colours.',
      input: '',
      output: 'Red, yellow, blue.',
    };
    for (const input of ['Noinput', 'No input.', '"<noinput>"', 'N/A', 'None', 'null']) {
      const dirty = { ...clean, input };
      const sample = rowToSample(dirty, 'alpaca') as ConversationSample;
      const { blocks } = await audit([sample]);
      expect(blocks[0]?.checks.coherence?.issues.map((i) => i.code)).toContain('placeholder');
      const { outcomes } = await fix([sample]);
      expect(sampleToRow(outcomes[0]?.output as ConversationSample, dirty, 'alpaca')).toEqual(
        clean,
      );
    }
  });

  it('flags an assistant output that is a placeholder without inventing one', async () => {
    const sample = rowToSample(
      { instruction: 'Summarise the text.', input: '', output: 'N/A' },
      'alpaca',
    );
    const { outcomes } = await fix([sample]);
    expect(outcomes[0]?.fix?.flagged).toBe(true);
    expect(outcomes[0]?.output).toEqual(sample);
  });
});

describe('refusal', () => {
  it('fails a reply that only refuses, warns on the boilerplate inside an answer', () => {
    const refusal = refusalRule.detect('As an AI language model, I cannot browse the internet.');
    expect(refusal?.severity).toBe('error');
    const inside = refusalRule.detect(
      'Paris is the capital of France. As an AI language model, I find this well documented in many sources, and here is more about it.',
    );
    expect(inside).not.toBeNull();
    expect(inside?.severity).toBeUndefined();
  });

  it('does not read a user asking for a role as a refusal', () => {
    expect(
      refusalRule.detect(
        'As an AI assistant, you should answer briefly.',
        at('/messages/0/content', 'user'),
      ),
    ).toBeNull();
    expect(refusalRule.detect('I cannot believe how good this cake is!')).toBeNull();
  });
});

describe('restatesPrompt', () => {
  it('tells an echo of the instruction from an answer', () => {
    expect(restatesPrompt('Name three primary colours.', 'Name three primary colours')).toBe(true);
    expect(restatesPrompt('Name three primary colours.', 'Red, yellow and blue.')).toBe(false);
    expect(restatesPrompt('Is 7 prime?', 'Yes.')).toBe(false);
  });
});
