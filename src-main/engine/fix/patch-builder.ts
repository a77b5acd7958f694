import type { Change } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { getAt, removeAt, setAt } from '../json-pointer.ts';

/**
 * Fixers edit a working copy through this builder, which records every edit
 * as a JSON Patch operation with `old` and `reason`. Applying the recorded
 * operations, in order, to the original sample gives the working copy: the
 * `changes` of a fix block are true by construction.
 */
export class PatchBuilder {
  readonly sample: Sample;
  readonly changes: Change[] = [];

  constructor(original: Sample) {
    this.sample = structuredClone(original);
  }

  get(path: string): unknown {
    return getAt(this.sample, path);
  }

  replace(path: string, value: unknown, reason: string): void {
    const old = getAt(this.sample, path);
    if (Object.is(old, value)) return;
    setAt(this.sample, path, value);
    this.changes.push({ op: 'replace', path, value, old, reason });
  }

  remove(path: string, reason: string): void {
    const old = getAt(this.sample, path);
    removeAt(this.sample, path);
    this.changes.push({ op: 'remove', path, old, reason });
  }

  /** Replaces a string field with the result of `fix`, when it changes it. */
  rewrite(path: string, fix: (text: string) => string, reason: string): void {
    const current = this.get(path);
    if (typeof current !== 'string') return;
    const next = fix(current);
    if (next !== current) this.replace(path, next, reason);
  }
}
