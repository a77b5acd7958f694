import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuditBlock, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  asText,
  commonsenseQa,
  ftfyCases,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../testing/real-data.ts';
import { DuplicateIndex, duplicateWords } from './duplicates.ts';
import { DatasetScan, prepareSample, VerdictTally, type ScanResult } from './scan.ts';
import { INJECTED_KINDS, injectDuplicates, type InjectedKind } from './testing/inject.ts';

/**
 * The scan's two ways in: a sample added where the scan is (`add`), or
 * prepared in another thread and added by what was made of it
 * (`addPrepared`), as the file pass does; and a tally of verdicts counted in
 * one place or in parts absorbed in order. Each pair must give the same.
 */

const REAL: readonly Sample[] = [
  ...gsm8k().slice(0, 60),
  ...commonsenseQa().slice(0, 40),
  ...hellaswag().slice(0, 40),
  ...truthfulQa().slice(0, 40),
  ...oasst().slice(0, 30),
  ...ftfyCases().wild.map((c) => asText(c.original)),
];

const KINDS: readonly InjectedKind[] = INJECTED_KINDS;

/** A copy that gives the question another answer (a label conflict), or null for a sample without one. */
function withOtherLabel(sample: Sample): Sample | null {
  switch (sample.task_type) {
    case 'multiple_choice':
      return sample.choices.length < 2
        ? null
        : { ...sample, answer_index: (sample.answer_index + 1) % sample.choices.length };
    case 'question_answer':
      return { ...sample, answer: `${sample.answer} (or not)` };
    default:
      return null;
  }
}

/** The samples with label-conflicting copies of every `every`-th one appended. */
function withConflicts(samples: readonly Sample[], every: number): Sample[] {
  const copies = samples.filter((_, i) => i % every === 0).map(withOtherLabel);
  return [...samples, ...copies.filter((copy): copy is Sample => copy !== null)];
}

/** A scan's result as data: its issues (made on demand by functions) listed. */
const asData = ({ duplicates, ...rest }: ScanResult): unknown => ({
  ...rest,
  duplicates: { ...duplicates, issues: [...duplicates.issues] },
});

async function scanned(
  samples: readonly Sample[],
  origins: readonly number[],
  threshold: number,
  addOne: (scan: DatasetScan, sample: Sample, origin: number) => void,
): Promise<ScanResult> {
  const scan = new DatasetScan(threshold);
  samples.forEach((sample, i) => addOne(scan, sample, origins[i] ?? 0));
  return scan.finish((rows, deliver) => {
    for (const row of rows) deliver(row, duplicateWords(samples[row] as Sample));
  });
}

describe('DatasetScan: add and addPrepared', () => {
  it('give the same groups, issues, statistics and findings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }),
          from: fc.nat({ max: REAL.length - 1 }),
          count: fc.integer({ min: 1, max: 160 }),
          copies: fc.integer({ min: 0, max: 40 }),
          threshold: fc.constantFrom(0.5, 0.7, 0.8, 0.9),
          // Rows read along the paths of one tree share their row as origin: a copy and its
          // source made so are never near duplicates of each other.
          sharedOrigins: fc.boolean(),
          conflictsEvery: fc.integer({ min: 1, max: 30 }),
        }),
        async ({ seed, from, count, copies, threshold, sharedOrigins, conflictsEvery }) => {
          const picked = REAL.slice(from, from + count);
          const injection = injectDuplicates(picked, copies, KINDS, seed);
          const { injected } = injection;
          const samples = withConflicts(injection.samples, conflictsEvery);
          const origins = samples.map(() => 0);
          if (sharedOrigins) {
            for (const { row, of } of injected) origins[row] = origins[of] = of + 1;
          }
          const index = new DuplicateIndex(threshold);
          const [direct, prepared] = await Promise.all([
            scanned(samples, origins, threshold, (scan, sample, origin) => {
              scan.add(sample, undefined, origin);
            }),
            scanned(samples, origins, threshold, (scan, sample, origin) => {
              // What crosses to the scan's thread is a copy, as postMessage makes it.
              scan.addPrepared(structuredClone(prepareSample(sample, index)), origin);
            }),
          ]);
          expect(asData(prepared)).toEqual(asData(direct));
        },
      ),
      // Each finish identifies languages on a worker of its own: a few runs, given time.
      { numRuns: 8 },
    );
  }, 120_000);

  it('finds the copies made of real samples, the same both ways', async () => {
    const injection = injectDuplicates(REAL, 60, KINDS, 11);
    const { injected } = injection;
    const samples = withConflicts(injection.samples, 10);
    const threshold = 0.8;
    const index = new DuplicateIndex(threshold);
    const [direct, prepared] = await Promise.all([
      scanned(samples, [], threshold, (scan, sample) => scan.add(sample)),
      scanned(samples, [], threshold, (scan, sample) =>
        scan.addPrepared(prepareSample(sample, index)),
      ),
    ]);
    expect(asData(prepared)).toEqual(asData(direct));
    // Not a vacuous equality: the copies are found, and the statistics count every sample.
    expect(direct.duplicates.groups.length).toBeGreaterThan(injected.length / 2);
    expect(direct.statistics.samples).toBe(samples.length);
    expect(direct.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['duplicates', 'label_conflicts']),
    );
  });

  it('refuses a sample prepared for another threshold', () => {
    const scan = new DatasetScan(0.8);
    const sample = REAL[0] as Sample;
    expect(() => scan.addPrepared(prepareSample(sample, new DuplicateIndex(0.5)))).toThrow(
      /another duplicate threshold/,
    );
  });
});

const CHECKS = ['format', 'duplicates', 'contamination', 'answer', 'language'];
const CODES = ['mojibake', 'exact_duplicate', 'near_duplicate', 'wrong_answer', 'too_short'];

const aVerdict: fc.Arbitrary<Verdict> = fc.record({
  passed: fc.constantFrom(true, false, null),
  score: fc.double({ min: 0, max: 1, noNaN: true }),
  issues: fc.array(
    fc.record(
      {
        code: fc.constantFrom(...CODES),
        message: fc.constant('why'),
        severity: fc.constantFrom<'error' | 'warning'>('error', 'warning'),
      },
      { requiredKeys: ['code', 'message'] },
    ),
    { maxLength: 3 },
  ),
});

const anAudit: fc.Arbitrary<AuditBlock | null | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  {
    weight: 6,
    arbitrary: fc
      .dictionary(fc.constantFrom(...CHECKS), aVerdict, { maxKeys: 4 })
      .map((checks) => ({
        passed: Object.values(checks).every((v) => v.passed !== false),
        checks,
        model: 'svc-audit-1',
        votes: 1,
      })),
  },
);

describe('VerdictTally: parts absorbed in order', () => {
  it('count as one tally counts the same blocks, names in the same order', () => {
    fc.assert(
      fc.property(
        fc.array(anAudit, { maxLength: 60 }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 6 }),
        (audits, cuts) => {
          const one = new VerdictTally();
          for (const audit of audits) one.add(audit);

          const bounds = [
            0,
            ...cuts.map((c) => Math.min(c, audits.length)).sort((a, b) => a - b),
            audits.length,
          ];
          const whole = new VerdictTally();
          for (let i = 0; i + 1 < bounds.length; i++) {
            const part = new VerdictTally();
            for (const audit of audits.slice(bounds[i], bounds[i + 1])) part.add(audit);
            // The parts cross threads as plain data.
            whole.absorb(structuredClone(part.parts()));
          }
          expect(whole.parts()).toEqual(one.parts());
          expect(JSON.stringify(whole)).toBe(JSON.stringify(one));
        },
      ),
      { numRuns: 300 },
    );
  });
});
