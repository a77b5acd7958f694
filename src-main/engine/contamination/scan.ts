import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { DatasetFinding } from '../../../src-shared/schemas/report.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { verdictOf } from '../verdict.ts';
import { benchmarkSpec } from './benchmarks.ts';
import { sampleFields } from './fields.ts';
import { LONG_N } from './build.ts';
import type { ContaminationMatcher, ItemMatch } from './match.ts';

/**
 * The `contamination` check over a run's samples, fed one at a time in
 * order: each row's matches are kept (only rows with any), and at the end
 * each becomes its verdict.
 *
 * - A row holding most of an item's question (or of the whole item) fails:
 *   `benchmark_overlap` for a public benchmark, `split_overlap` for the
 *   user's own evaluation set. A partial overlap of a long part warns (see
 *   `holds` and `partial`).
 * - When most rows of the run hold items of one benchmark, the run is that
 *   benchmark (someone cleaning an eval set): a `benchmark_dataset` finding
 *   names it and its rows warn instead of failing.
 */

/** The share of an item's question (or of all its n-grams) that makes a row hold it. */
export const HOLDS = 0.7;
/** The share of a short question that makes a row hold it. */
export const HOLDS_SHORT = 0.8;
/** The share of a long question that makes a partial overlap. */
export const PARTIAL_SHARE = 0.3;
/** The fewest distinct n-grams of one item that make a partial overlap. */
export const PARTIAL_GRAMS = 3;
/** More than this share of a run's rows holding one benchmark makes the run that benchmark... */
export const BENCHMARK_DATASET_SHARE = 0.5;
/** ...when they are at least this many. */
export const BENCHMARK_DATASET_ROWS = 5;

export interface ContaminationResult {
  /** Whether the check ran (something to look for); when not, rows get no `contamination` verdict. */
  active: boolean;
  /** Issues by the sample's position in the run (only positions with any). */
  issues: Map<number, Issue[]>;
  findings: DatasetFinding[];
}

/**
 * Whether a row holds the item. A short question (8-grams: under 20 tokens)
 * must be there almost whole: templated questions ("Write a function to find
 * the maximum of ..." / "... the minimum of ...") share half their 8-grams.
 */
export function holds(match: ItemMatch): boolean {
  if (!match.evidence) return false;
  const bar = match.questionSize === LONG_N ? HOLDS : HOLDS_SHORT;
  return match.question >= bar || match.similarity >= bar;
}

/**
 * A partial overlap: at least PARTIAL_GRAMS n-grams, and PARTIAL_SHARE of a
 * long question (13-grams: a long prompt) or half of a long answer (a worked
 * solution, a function body: code shares idioms, a quarter of one says
 * little). Short parts share too much phrasing with their siblings to say
 * anything when partly there.
 */
function partial(match: ItemMatch): boolean {
  if (!match.evidence || match.grams < PARTIAL_GRAMS) return false;
  return (
    (match.questionSize === LONG_N && match.question >= PARTIAL_SHARE) ||
    (match.answerSize === LONG_N && match.answer >= HOLDS)
  );
}

/** The items a sample holds or partly overlaps (the matches that make an issue). */
export function matchesOf(matcher: ContaminationMatcher, sample: Sample): ItemMatch[] {
  return matcher.match(sampleFields(sample)).filter((m) => holds(m) || partial(m));
}

export class ContaminationScan {
  readonly #matcher: ContaminationMatcher | null;
  readonly #matches = new Map<number, ItemMatch[]>();
  #rows = 0;

  /** `null`: the check is off (no benchmarks chosen, no eval set named); every row passes. */
  constructor(matcher: ContaminationMatcher | null) {
    this.#matcher = matcher;
  }

  /** Reads the next sample of the run. */
  add(sample: Sample): void {
    this.addFound(this.#matcher ? matchesOf(this.#matcher, sample) : undefined);
  }

  /**
   * Takes the next sample of the run by what `matchesOf` found in it
   * elsewhere (an engine worker, with a matcher of the same sets).
   */
  addFound(found: readonly ItemMatch[] | undefined): void {
    const position = this.#rows++;
    if (this.#matcher && found && found.length > 0) this.#matches.set(position, [...found]);
  }

  finish(): ContaminationResult {
    const rowsHolding = new Map<string, number>();
    const itemsHeld = new Map<string, Set<number>>();
    const rowsFlagged = new Map<string, number>();
    for (const matches of this.#matches.values()) {
      for (const match of matches) {
        rowsFlagged.set(match.set, (rowsFlagged.get(match.set) ?? 0) + 1);
        let items = itemsHeld.get(match.set);
        if (!items) itemsHeld.set(match.set, (items = new Set()));
        items.add(match.item);
        if (holds(match)) rowsHolding.set(match.set, (rowsHolding.get(match.set) ?? 0) + 1);
      }
    }
    const itself = [...rowsHolding]
      .filter(
        ([set, rows]) =>
          benchmarkSpec(set) !== undefined &&
          rows >= BENCHMARK_DATASET_ROWS &&
          rows > this.#rows * BENCHMARK_DATASET_SHARE,
      )
      .map(([set]) => set);
    const issues = new Map<number, Issue[]>();
    for (const [position, matches] of this.#matches) {
      issues.set(
        position,
        matches.map((match) => issueOf(match, itself.includes(match.set))),
      );
    }
    const findings: DatasetFinding[] = [];
    if (rowsFlagged.size > 0) {
      const sets = [...rowsFlagged].sort((a, b) => b[1] - a[1]);
      const rows = this.#matches.size;
      findings.push({
        code: 'benchmark_contamination',
        message:
          `${rows} ${rows === 1 ? 'row holds' : 'rows hold'} evaluation items: ` +
          sets
            .map(
              ([set, n]) =>
                `${titleOf(set)} ${n} ${n === 1 ? 'row' : 'rows'} (${itemsCount(itemsHeld.get(set)?.size ?? 0)})`,
            )
            .join(', '),
        rows,
        benchmarks: sets.map(([set, n]) => ({
          benchmark: set,
          kind: benchmarkSpec(set) ? 'benchmark' : 'evaluation_set',
          rows: n,
          items: itemsHeld.get(set)?.size ?? 0,
        })),
      });
    }
    for (const set of itself) {
      const rows = rowsHolding.get(set) ?? 0;
      findings.push({
        code: 'benchmark_dataset',
        message:
          `${rows} of ${this.#rows} rows are items of ${titleOf(set)}: this looks like the ` +
          `benchmark itself, so its rows warn instead of failing`,
        benchmark: set,
        rows,
      });
    }
    return { active: this.#matcher !== null, issues, findings };
  }
}

const titleOf = (set: string): string => benchmarkSpec(set)?.title ?? set;

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** The issue a match raises; `itself`: the run is that benchmark (its rows warn). */
export function issueOf(match: ItemMatch, itself = false): Issue {
  const benchmark = benchmarkSpec(match.set) !== undefined;
  const held = holds(match);
  const what = match.hasAnswer
    ? `${percent(match.question)} of its question and ${percent(match.answer)} of its answer`
    : `${percent(match.question)} of it`;
  const where = benchmark
    ? `${titleOf(match.set)} item ${match.item}`
    : // Numbered from 1, as the app's grid numbers its rows (`benchmark_item` stays 0-based).
      `row ${match.item + 1} of the evaluation set ${match.set}`;
  const message =
    `${held ? 'holds' : 'overlaps'} ${where} (${what})` +
    (itself && held ? `; warns only: the run is ${titleOf(match.set)} itself` : '');
  return {
    code: benchmark ? 'benchmark_overlap' : 'split_overlap',
    message,
    path: match.path,
    span: match.span,
    severity: held && !itself ? 'error' : 'warning',
    similarity: Math.round(match.similarity * 1000) / 1000,
    benchmark: match.set,
    benchmark_item: match.item,
  };
}

/** A row's `contamination` verdict from its issues (none: it passes). */
export function contaminationVerdict(issues: readonly Issue[] | undefined): Verdict {
  return issues && issues.length > 0
    ? verdictOf([...issues])
    : { passed: true, score: 1, issues: [] };
}

const itemsCount = (n: number): string => `${n} ${n === 1 ? 'item' : 'items'}`;
