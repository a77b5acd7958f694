import { describe, expect, it } from 'vitest';
import { Sample, type ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { needsShared, sharedJsonl } from '../testing/shared-data.ts';
import { detectShape, rowToSample, sampleToRow } from './index.ts';

type Row = Record<string, unknown>;

/**
 * The Alpaca sample is CC BY-NC: it is read from shared/ beside the repo and
 * never copied into it.
 */
const ALPACA = 'datasets/alpaca_original_300.jsonl';
const suite = needsShared('Alpaca original 300 (shared/datasets)', ALPACA);

describe.skipIf(suite.skip)(suite.name, () => {
  const rows = sharedJsonl<Row>(ALPACA);

  it('is detected as Alpaca with confidence 1', () => {
    expect(rows).toHaveLength(300);
    expect(detectShape(rows.slice(0, 100))).toMatchObject({ shape: 'alpaca', confidence: 1 });
  });

  it('round-trips every row', () => {
    for (const row of rows) {
      const sample = rowToSample(row, 'alpaca');
      expect(Sample.parse(sample)).toEqual(sample);
      expect(JSON.stringify(sampleToRow(sample, row, 'alpaca'))).toBe(JSON.stringify(row));
    }
  });

  it('recovers instruction and input when only one of them was fixed', () => {
    for (const row of rows) {
      const sample = rowToSample(row, 'alpaca') as ConversationSample;
      const [user, assistant] = sample.messages;
      if (!user || !assistant) throw new Error('two messages expected');
      const instruction = row.instruction as string;
      const input = row.input as string;
      const fixedInstruction = `${instruction} (fixed)`;
      const prompt = input.trim() === '' ? fixedInstruction : `${fixedInstruction}\n\n${input}`;
      const back = sampleToRow(
        { ...sample, messages: [{ ...user, content: prompt }, assistant] },
        row,
        'alpaca',
      );
      expect(back).toEqual({ ...row, instruction: fixedInstruction });
      if (input.trim() !== '') {
        const fixedInput = `${input} (fixed)`;
        const back2 = sampleToRow(
          {
            ...sample,
            messages: [{ ...user, content: `${instruction}\n\n${fixedInput}` }, assistant],
          },
          row,
          'alpaca',
        );
        expect(back2).toEqual({ ...row, input: fixedInput });
      }
    }
  });
});
