import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { changesBetween } from './edit-patch.ts';

/** A person's edit as a JSON Patch with `old`: applied in order, it gives the edited sample. */

const sampleArb = fc.record({
  task_type: fc.constant('multiple_choice'),
  context: fc.string({ maxLength: 20 }),
  choices: fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }),
  answer_index: fc.nat(5),
  meta: fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 4 })), {
    nil: undefined,
  }),
});

describe('changesBetween', () => {
  it('names what each operation replaced or removed', () => {
    const before = { task_type: 'text', text: 'Caf\u00c3\u00a9', id: 3 };
    const after = { task_type: 'text', text: 'Café', id: 3, note: 'checked' };
    expect(changesBetween(before, after)).toEqual([
      { op: 'replace', path: '/text', value: 'Café', old: 'Caf\u00c3\u00a9', reason: 'edit' },
      { op: 'add', path: '/note', value: 'checked', reason: 'edit' },
    ]);
  });

  it('edits a sample holding a key named __proto__ as data, and touches no prototype', () => {
    const before = JSON.parse(
      '{"task_type":"text","text":"a","meta":{"__proto__":{"src":"crawl"}}}',
    ) as Record<string, unknown>;
    const after = JSON.parse(
      '{"task_type":"text","text":"a","meta":{"__proto__":{"src":"checked"}},"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    expect(changesBetween(before, after)).toEqual([
      {
        op: 'replace',
        path: '/meta/__proto__/src',
        value: 'checked',
        old: 'crawl',
        reason: 'edit',
      },
      { op: 'add', path: '/__proto__', value: { polluted: true }, reason: 'edit' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(before)).toBe(Object.prototype);
  });

  it('leaves both samples as they were, and its values are copies, not parts of them', () => {
    const before = { task_type: 'text', text: 'a', meta: { tags: ['x', 'y'], by: { k: 1 } } };
    const after = { task_type: 'text', text: 'b', meta: { tags: ['x'] }, extra: { k: [2] } };
    const [beforeText, afterText] = [JSON.stringify(before), JSON.stringify(after)];
    const changes = changesBetween(before, after);
    expect(JSON.stringify(before)).toBe(beforeText);
    expect(JSON.stringify(after)).toBe(afterText);
    const removed = changes.find((change) => change.path === '/meta/by');
    expect(removed?.old).toEqual({ k: 1 });
    expect(removed?.old).not.toBe(before.meta.by);
    const added = changes.find((change) => change.path === '/extra');
    expect(added?.value).toEqual({ k: [2] });
    expect(added?.value).not.toBe(after.extra);
  });

  it('applied in order to the original gives the edit, old values read at each step (property)', () => {
    fc.assert(
      fc.property(sampleArb, sampleArb, (before, after) => {
        const changes = changesBetween(before, after);
        const applied = jsonPatch.applyPatch(
          structuredClone(before),
          changes.map(({ op, path, value }) =>
            op === 'remove' ? { op, path } : { op, path, value },
          ) as jsonPatch.Operation[],
        ).newDocument;
        expect(applied).toEqual(JSON.parse(JSON.stringify(after)));
        // undoing from the end with `old` gives the original back
        let undone: unknown = structuredClone(applied);
        for (const change of [...changes].reverse()) {
          const op =
            change.op === 'add'
              ? { op: 'remove' as const, path: change.path }
              : change.op === 'remove'
                ? { op: 'add' as const, path: change.path, value: change.old }
                : { op: 'replace' as const, path: change.path, value: change.old };
          undone = jsonPatch.applyOperation(undone as object, op, false, true).newDocument;
        }
        expect(undone).toEqual(JSON.parse(JSON.stringify(before)));
      }),
      { numRuns: 300 },
    );
  });
});
