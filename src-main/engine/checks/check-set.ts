import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { Conventions } from '../conventions.ts';
import { verdictOf } from '../verdict.ts';
import type { Hit } from './text-fields.ts';

/**
 * Collects issues per check for one sample and turns them into verdicts.
 * Codes and checks switched off by the conventions are dropped here, in one
 * place, so every check honours them the same way.
 */
export class CheckSet {
  readonly #issues = new Map<string, { issue: Issue; count: number }[]>();
  readonly #fixed = new Map<string, Verdict>();
  readonly #conventions: Conventions;

  constructor(names: readonly string[], conventions: Conventions) {
    this.#conventions = conventions;
    for (const name of names) this.#issues.set(name, []);
  }

  add(check: string, issue: Issue, count = 1): void {
    if (this.#conventions.off.has(issue.code)) return;
    const list = this.#issues.get(check) ?? [];
    list.push({ issue, count });
    this.#issues.set(check, list);
  }

  addHits(check: string, hits: Hit[]): void {
    for (const hit of hits) this.add(check, hit.issue, hit.count);
  }

  /** A check whose verdict is computed whole (e.g. `label_correct`). */
  set(check: string, verdict: Verdict): void {
    this.#fixed.set(check, verdict);
  }

  verdicts(): Record<string, Verdict> {
    const out: Record<string, Verdict> = {};
    for (const [name, entries] of this.#issues) {
      out[name] = this.#conventions.off.has(name)
        ? verdictOf([])
        : verdictOf(
            entries.map((e) => e.issue),
            entries.map((e) => e.count),
          );
    }
    for (const [name, verdict] of this.#fixed) {
      out[name] = this.#conventions.off.has(name)
        ? { passed: null, score: 0.5, issues: [] }
        : verdict;
    }
    return out;
  }
}
