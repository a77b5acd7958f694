import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import type {
  DatasetFinding,
  DatasetReport,
  DatasetStatistics,
  Tally,
} from '../../../src-shared/schemas/report.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  DEFAULT_DUPLICATE_THRESHOLD,
  DuplicateIndex,
  type BandPushes,
  type DuplicateResult,
  type FetchWords,
  type KeptApart,
  type NameRow,
  type Pause,
  type TemplatedRows,
} from './duplicates.ts';
import { duplicateKey, type DuplicateKey } from './keys.ts';
import type { PackedRecords } from './packed-records.ts';
import type { LanguageTextFetch } from './language-reservoir.ts';
import { StatisticsAccumulator, statisticsRecord, type StatisticsRecord } from './statistics.ts';

/**
 * One pass over a run's samples for everything that looks across rows: the
 * duplicate index and the statistics, fed one sample at a time, and then the
 * `duplicates` verdicts, groups, statistics and findings. The CLI feeds it
 * from the file, the app from SQLite, the API from the request.
 */
export class DatasetScan {
  private readonly duplicates: DuplicateIndex;
  private readonly statistics = new StatisticsAccumulator();

  constructor(threshold = DEFAULT_DUPLICATE_THRESHOLD) {
    this.duplicates = new DuplicateIndex(threshold);
  }

  get size(): number {
    return this.duplicates.size;
  }

  /**
   * Adds the next sample. With its stored signature (from an earlier scan of
   * the same sample), duplicate detection takes that instead of hashing it;
   * returns the signature computed, or null when the stored one served.
   * `origin`: see DuplicateIndex.add (the paths of one tree).
   */
  add(sample: Sample, stored?: Uint32Array, origin = 0): Uint32Array | null {
    // The key is worked out at most once: the statistics count its label (multiple choice and
    // question-answer), duplicates hash its words (unless a stored signature serves).
    let key: DuplicateKey | undefined;
    const keyOf = (): DuplicateKey => (key ??= duplicateKey(sample));
    this.statistics.add(sample, keyOf);
    if (stored && this.duplicates.addSignature(stored, origin)) return null;
    this.duplicates.add(sample, origin, keyOf());
    return this.duplicates.lastSignature();
  }

  /**
   * Adds the next sample by what `prepareSample` made of it in another thread
   * (the same as `add(sample)`, the hashing done there).
   */
  addPrepared(prepared: PreparedSample, origin = 0): void {
    this.statistics.addRecord(prepared.statistics);
    if (!this.duplicates.addSignature(prepared.signature, origin)) {
      throw new Error('a prepared signature of another duplicate threshold or key version');
    }
  }

  /**
   * Adds a slice of samples prepared in another thread (SlicePreparer), in
   * order: the same as `addPrepared` for each, with the statistics records
   * packed (see PackedRecords) and the signatures one after another.
   */
  addPackedSlice(
    records: PackedRecords,
    signatures: Uint32Array,
    signatureLength: number,
    origins: readonly number[] | null,
  ): void {
    this.statistics.addPacked(records);
    if (!this.duplicates.addSignatures(signatures, signatureLength, records.samples, origins)) {
      throw new Error('a prepared signature of another duplicate threshold or key version');
    }
  }

  /**
   * `apart`: pairs a person said are not duplicates (see `KeptApart`);
   * `bandPushes`: where the LSH bands' pairs are made (other threads), else here.
   */
  async finish(
    fetch: FetchWords,
    name?: NameRow,
    pause?: Pause,
    apart?: KeptApart,
    bandPushes?: BandPushes,
  ): Promise<ScanResult> {
    // The statistics need nothing of the duplicates: their languages are identified (on a
    // worker of their own, which loads its identifier first) while the near duplicates are
    // verified, not after them (200,000 rows: ~1 s sooner).
    const [statistics, duplicates] = await Promise.all([
      this.statistics.finish(),
      this.duplicates.finish(fetch, name, pause, apart, bandPushes),
    ]);
    return withStatistics(duplicates, statistics, name);
  }

  /**
   * The two halves of `finish`, for a caller that needs the verdicts before
   * the statistics (a file pass starts its run meanwhile): the duplicates,
   * and the statistics (languages are identified on a worker of their own).
   */
  finishDuplicates(
    fetch: FetchWords,
    name?: NameRow,
    pause?: Pause,
    bandPushes?: BandPushes,
  ): Promise<DuplicateResult> {
    return this.duplicates.finish(fetch, name, pause, undefined, bandPushes);
  }

  /**
   * `fetch`: the language texts of rows added without them; `labels`: the
   * languages of rows identified elsewhere (see `StatisticsAccumulator.finish`).
   */
  finishStatistics(
    fetch?: LanguageTextFetch,
    labels?: Promise<ReadonlyMap<number, string> | undefined>,
  ): ReturnType<StatisticsAccumulator['finish']> {
    return this.statistics.finish(fetch, labels);
  }
}

/** The scan's result from its two halves (see `finishDuplicates`). */
export function withStatistics(
  duplicates: DuplicateResult,
  { statistics, findings }: Awaited<ReturnType<StatisticsAccumulator['finish']>>,
  name?: NameRow,
): ScanResult {
  return {
    duplicates,
    statistics,
    findings: [...duplicateFindings(duplicates, name ?? ((row) => `row ${row}`)), ...findings],
  };
}

/** A sample as the scan reads it: its duplicate signature and its statistics record. */
export interface PreparedSample {
  signature: Uint32Array;
  statistics: StatisticsRecord;
}

/**
 * What `DatasetScan.add` computes of one sample, made apart (in an engine
 * worker, where the sample was read) for `addPrepared` to take in order.
 * `index` is a DuplicateIndex of the scan's threshold (only its hashing is used).
 */
export function prepareSample(sample: Sample, index: DuplicateIndex): PreparedSample {
  const key = duplicateKey(sample);
  return {
    signature: index.signatureOf(sample, key),
    statistics: statisticsRecord(sample, () => key),
  };
}

export interface ScanResult {
  duplicates: DuplicateResult;
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
}

function duplicateFindings(
  { groups, templated }: DuplicateResult,
  name: NameRow,
): DatasetFinding[] {
  const siblings = templated && templated.rows > 0 ? [templatedFinding(templated, name)] : [];
  if (groups.length === 0) return siblings;
  const repeats = groups.reduce((sum, g) => sum + g.rows.length - 1, 0);
  const exact = groups.filter((g) => g.kind === 'exact').length;
  const findings: DatasetFinding[] = [
    {
      code: 'duplicates',
      message:
        `${repeats} ${repeats === 1 ? 'row repeats' : 'rows repeat'} an earlier one, in ` +
        `${groups.length} ${groups.length === 1 ? 'group' : 'groups'} (${exact} exact, ` +
        `${groups.length - exact} near)`,
      rows: repeats,
      groups: groups.length,
    },
  ];
  const conflicts = groups.filter((g) => g.label_conflict);
  if (conflicts.length > 0) {
    findings.push({
      code: 'label_conflicts',
      message:
        `${conflicts.length} ${conflicts.length === 1 ? 'group gives' : 'groups give'} the same ` +
        'question different answers',
      groups: conflicts.length,
    });
  }
  return [...findings, ...siblings];
}

/**
 * `templated_rows`: rows written from one template that ask different
 * questions (a differing number, symbol, variable or operation word). Not a
 * defect, so never a failing row: a reviewer sees how much of the data is
 * templated, and a few pairs to judge.
 */
function templatedFinding(templated: TemplatedRows, name: NameRow): DatasetFinding {
  const examples = templated.examples.map(({ rows: [a, b], differing }) => ({
    rows: [a, b],
    differing,
    text: `${name(a)} and ${name(b)}${differing.length > 0 ? ` (${differing.slice(0, 6).join(', ')})` : ''}`,
  }));
  return {
    code: 'templated_rows',
    message:
      `${templated.rows} rows in ${templated.groups} ${templated.groups === 1 ? 'set' : 'sets'} ` +
      'are siblings of a template: alike but for numbers, symbols, variables or operation ' +
      `words, so not duplicates; e.g. ${examples.map((e) => e.text).join('; ')}`,
    rows: templated.rows,
    groups: templated.groups,
    examples: examples.map(({ rows, differing }) => ({ rows, differing })),
  };
}

/** What one row adds to a tally, in the order it counts them: by check, then by issue code. */
export interface RowCounts {
  checks: [string, keyof Tally][];
  issues: [string, keyof Tally][];
}

/** The checks and issue codes an audit block counts as failed or warned. */
export function rowCounts(audit: AuditBlock): RowCounts {
  const checks: [string, keyof Tally][] = [];
  const codes = new Map<string, keyof Tally>();
  for (const [name, verdict] of Object.entries(audit.checks)) {
    const warned = verdict.issues.some((issue) => issue.severity === 'warning');
    if (verdict.passed === false) checks.push([name, 'failed']);
    else if (warned) checks.push([name, 'warned']);
    for (const issue of verdict.issues) {
      const kind = issue.severity === 'warning' ? 'warned' : 'failed';
      // A row counts once per code; an error outranks a warning of the same code.
      if (codes.get(issue.code) !== 'failed') codes.set(issue.code, kind);
    }
  }
  return { checks, issues: [...codes] };
}

/** A VerdictTally as plain data (see `parts`). */
export interface TallyParts {
  samples: number;
  checks: [string, Tally][];
  issues: [string, Tally][];
}

/** Counts of failures and warnings per check and per issue code over audit blocks. */
export class VerdictTally {
  private samples = 0;
  private readonly checks = new Map<string, Tally>();
  private readonly issues = new Map<string, Tally>();

  /** Counts a row's verdict (nothing for a row without one). */
  add(audit: AuditBlock | null | undefined): void {
    this.samples++;
    if (!audit) return;
    const counted = rowCounts(audit);
    for (const [name, kind] of counted.checks) bumpTally(this.checks, name, kind);
    for (const [code, kind] of counted.issues) bumpTally(this.issues, code, kind);
  }

  /** The counts as plain data, in the order first counted (another thread's, for `absorb`). */
  parts(): TallyParts {
    return { samples: this.samples, checks: [...this.checks], issues: [...this.issues] };
  }

  /**
   * Adds the counts of a tally of the rows that follow these: names keep the
   * order they were first counted in, as if one tally had counted them all.
   */
  absorb(parts: TallyParts): void {
    this.samples += parts.samples;
    for (const [map, entries] of [
      [this.checks, parts.checks],
      [this.issues, parts.issues],
    ] as const) {
      for (const [name, tally] of entries) {
        const mine = map.get(name) ?? { failed: 0, warned: 0 };
        map.set(name, { failed: mine.failed + tally.failed, warned: mine.warned + tally.warned });
      }
    }
  }

  toJSON(): { samples: number; checks: Record<string, Tally>; issues: Record<string, Tally> } {
    return {
      samples: this.samples,
      checks: sortedTallies(this.checks),
      issues: sortedTallies(this.issues),
    };
  }
}

/** Counts one row as failed or warned under `key`. */
export function bumpTally(map: Map<string, Tally>, key: string, kind: keyof Tally): void {
  const tally = map.get(key) ?? { failed: 0, warned: 0 };
  tally[kind]++;
  map.set(key, tally);
}

/** Tallies as an object, most failures first (then most warnings). */
export function sortedTallies(map: Map<string, Tally>): Record<string, Tally> {
  return Object.fromEntries(
    [...map].sort((a, b) => b[1].failed - a[1].failed || b[1].warned - a[1].warned),
  );
}

/** A check failing in at least this share of the rows is a finding. */
const FAILING_SHARE = 0.05;

/** The findings `failing_check`: each check failing in at least FAILING_SHARE of `rows`. */
export function failingCheckFindings(
  checks: Record<string, Tally>,
  rows: number,
): DatasetFinding[] {
  return Object.entries(checks)
    .filter(([, t]) => rows > 0 && t.failed / rows >= FAILING_SHARE)
    .map(([check, t]) => ({
      code: 'failing_check',
      message: `${check} fails in ${t.failed} of ${rows} rows (${Math.round((t.failed / rows) * 100)}%)`,
      check,
      rows: t.failed,
    }));
}

/** The report of a run: its scan and the tally of its verdicts. */
export function assembleReport(scan: ScanResult, tally: VerdictTally): DatasetReport {
  const counted = tally.toJSON();
  const samples = scan.statistics.samples;
  const failing = failingCheckFindings(counted.checks, samples);
  return {
    samples,
    checks: counted.checks,
    issues: counted.issues,
    duplicate_groups: scan.duplicates.groups,
    findings: [...scan.findings, ...failing],
    statistics: scan.statistics,
  };
}
