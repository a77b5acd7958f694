import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { gsm8k, hellaswag } from '../testing/real-data.ts';
import { DETECTION_ROWS } from './head-mapping.ts';
import { mappingSpecOf, rowMappingOf } from './mapping-spec.ts';
import { detectHead, resolveRowMapping, type RowMapping } from './row-mapping.ts';
import type { RowResult } from './row-result.ts';
import { samplesOfRows } from './samples-of-row.ts';

/**
 * A row mapping sent to another thread as its spec (`mappingSpecOf`) and
 * made again there (`rowMappingOf`) maps every row as the one it came from:
 * the same samples and errors, and the same rows written back.
 */

const DATASETS = join(import.meta.dirname, '..', '..', '..', 'resources', 'datasets');

/** A file's rows as the JSON Lines reader gives them (its row errors aside: all rows parse). */
function rowsOf(text: string): RowResult[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, row: i + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, row }) => ({
      row,
      value: JSON.parse(line) as Record<string, unknown>,
      raw: line,
    }));
}

/** Rows that do not fit, after the good ones: each mapping must fail them alike. */
function withBrokenRows(rows: RowResult[]): RowResult[] {
  const last = rows.length > 0 ? (rows[rows.length - 1] as RowResult).row : 0;
  const broken = rows.slice(0, 4).flatMap((r, i): RowResult[] => {
    if (!('value' in r)) return [];
    const [key] = Object.keys(r.value);
    if (key === undefined) return [];
    // Its first field gone, or a number where the shape wants text or a list.
    const value = Object.fromEntries(
      Object.entries(r.value).flatMap(([k, v]) =>
        k !== key ? [[k, v]] : i % 2 === 0 ? [] : [[k, 42]],
      ),
    );
    return [{ row: last + i + 1, value }];
  });
  return [...rows, ...broken, { row: last + 9, value: {} }];
}

/** A sample with its main text changed, as a repair changes it. */
function edited(sample: Sample): Sample {
  switch (sample.task_type) {
    case 'text':
      return { ...sample, text: `${sample.text} (edited)` };
    case 'multiple_choice':
      return { ...sample, context: `${sample.context} (edited)` };
    case 'question_answer':
      return { ...sample, answer: `${sample.answer} (edited)` };
    case 'conversation':
      return {
        ...sample,
        messages: sample.messages.map((m, i) => (i === 0 ? { ...m, content: `${m.content}!` } : m)),
      };
  }
}

/** What a mapping makes of rows: samples and errors, and each sample's edit written back. */
function mapped(mapping: RowMapping, rows: readonly RowResult[]): unknown[] {
  return samplesOfRows(mapping, rows).map((item) => {
    if (!('sample' in item)) return item;
    const row = rows.find((r) => r.row === item.row);
    if (!row || !('value' in row)) throw new Error(`no row ${item.row}`);
    const back = (): unknown => {
      try {
        if (!mapping.tree) return mapping.toRow(edited(item.sample), item.original);
        const parts = mapping.tree.samplesOf(row.value).map(({ route, sample }) => ({
          route,
          sample: edited(sample),
          label: `row ${item.row}`,
        }));
        return mapping.tree.toRow(row.value, parts);
      } catch (error) {
        return { thrown: (error as Error).message };
      }
    };
    return { ...item, back: back() };
  });
}

function expectSameMapping(mapping: RowMapping, rows: readonly RowResult[]): void {
  // The spec crosses postMessage: a structured clone of it is what the worker has.
  const again = rowMappingOf(structuredClone(mappingSpecOf(mapping)));
  expect(again.shape).toBe(mapping.shape);
  expect(again.tree === undefined).toBe(mapping.tree === undefined);
  const mine = mapped(mapping, rows);
  expect(mine.some((item) => typeof item === 'object' && item !== null && 'sample' in item)).toBe(
    true,
  );
  expect(mapped(again, rows)).toEqual(mine);
}

const shipped = readdirSync(DATASETS)
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => ({ name, rows: rowsOf(readFileSync(join(DATASETS, name), 'utf8')) }));

describe('rowMappingOf(mappingSpecOf(m))', () => {
  it('maps the rows of every shipped dataset as the detected shape does', () => {
    const shapes: string[] = [];
    for (const { name, rows } of shipped) {
      const head = rows.slice(0, DETECTION_ROWS);
      const shape = detectHead(head)?.shape;
      if (!shape) continue;
      shapes.push(shape);
      const mapping = resolveRowMapping(head, {});
      if (!mapping) throw new Error(`no mapping for ${name}`);
      expectSameMapping(mapping, withBrokenRows(rows));
    }
    // Not vacuous: most shipped datasets are of a known shape.
    expect(new Set(shapes).size).toBeGreaterThanOrEqual(4);
  });

  it('maps OpenAssistant trees read along every path alike', () => {
    const oasst = shipped.find((d) => d.name.startsWith('oasst'));
    if (!oasst) throw new Error('no OpenAssistant dataset shipped');
    const head = oasst.rows.slice(0, DETECTION_ROWS);
    const mapping = resolveRowMapping(head, { paths: 'all' });
    expect(mapping?.tree).toBeDefined();
    expectSameMapping(mapping as RowMapping, withBrokenRows(oasst.rows));
  });

  it('maps rows that are samples (task_type set) alike', () => {
    const rows: RowResult[] = [...gsm8k().slice(0, 20), ...hellaswag().slice(0, 20)].map(
      (sample, i) => ({
        row: i + 1,
        value: { ...sample },
      }),
    );
    const mapping = resolveRowMapping(rows, {});
    expect(mapping?.shape).toBe('sample');
    expectSameMapping(mapping as RowMapping, withBrokenRows(rows));
  });

  it('maps rows through a field mapping alike, its answer form detected once on the head', () => {
    const csqa = shipped.find((d) => d.name.startsWith('commonsenseqa'));
    if (!csqa) throw new Error('no CommonsenseQA dataset shipped');
    const field: FieldMapping = {
      task_type: 'multiple_choice',
      fields: { context: 'question', choices: 'choices.text', answer: 'answerKey' },
    };
    const mapping = resolveRowMapping(csqa.rows.slice(0, DETECTION_ROWS), { mapping: field });
    expect(mapping?.shape).toBe('custom');
    expect(mapping?.mapping?.answer_form).toBeDefined();
    expectSameMapping(mapping as RowMapping, withBrokenRows(csqa.rows));

    const gsm = shipped.find((d) => d.name.startsWith('gsm8k'));
    if (!gsm) throw new Error('no GSM8K dataset shipped');
    const qa: FieldMapping = {
      task_type: 'question_answer',
      fields: { question: 'question', answer: 'answer' },
    };
    const qaMapping = resolveRowMapping(gsm.rows.slice(0, DETECTION_ROWS), { mapping: qa });
    expectSameMapping(qaMapping as RowMapping, withBrokenRows(gsm.rows));
  });

  it('maps a file no shape matches through the mapping guessed for it', () => {
    const unmatched = shipped.filter(({ rows }) => !detectHead(rows.slice(0, DETECTION_ROWS)));
    for (const { rows } of unmatched) {
      const mapping = resolveRowMapping(rows.slice(0, DETECTION_ROWS), { guess: true });
      if (mapping) expectSameMapping(mapping, withBrokenRows(rows));
    }
  });
});
