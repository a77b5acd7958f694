import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejection, tempDirs } from './testing/cli-test-kit.ts';
import { datasets, merge, quietly, shardRuns, singleRun } from './testing/shard-kit.ts';
import { OWNER_ACCOUNT_ID } from '../service/billing/billing.ts';
import { openDatabase } from '../store/db.ts';
import { ledgerEntries } from '../store/ledger.ts';
import { fileOperationCommand } from './file-ops.ts';
import { mergeCommand } from './merge.ts';
import { ownsRow, parseShard, rowsOfShard } from './shard.ts';

/**
 * `svc audit|fix|refine --shard I/N` and `svc merge OUT PART...` in process
 * on real rows: the merge equals a single run, and parts that do not make one
 * run are refused with what is wrong (missing, doubled, another N, another
 * operation, another input, an unfinished shard).
 */

const tempDir = tempDirs('svc-merge-');

/** GSM8K's first 24 rows, row 3 again at the end (a duplicate) and an unreadable line. */
function smallFile(dir: string): string {
  const lines = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .slice(0, 24);
  lines.splice(10, 0, '{"question": "cut off');
  lines.push(lines[3] as string);
  const path = join(dir, 'small.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const mergeFails = (dir: string, parts: string[], extra: string[] = []) =>
  rejection(
    quietly(() =>
      mergeCommand([join(dir, 'm.jsonl'), ...parts, '--data-dir', join(dir, 'data'), ...extra]),
    ),
  );

describe('--shard I/N', () => {
  it('takes source row r into shard (r - 1) mod N and refuses what is not I/N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, of: 4 });
    expect([1, 2, 3, 4, 5].filter((row) => ownsRow({ index: 1, of: 2 }, row))).toEqual([2, 4]);
    expect(rowsOfShard({ index: 1, of: 4 }, 10)).toBe(3); // rows 2, 6, 10
    expect(rowsOfShard({ index: 3, of: 4 }, 3)).toBe(0);
    for (const bad of ['4/4', '1', '-1/4', '0/0', 'a/b', '1/2/3']) {
      expect(() => parseShard(bad)).toThrow(/--shard takes I\/N/);
    }
  });

  it('is refused with --write-back and with --report, which need the whole file', async () => {
    const dir = tempDir();
    const input = smallFile(dir);
    const run = (...flags: string[]) =>
      rejection(fileOperationCommand('fix', [input, '--shard', '0/2', ...flags]));
    expect((await run('--write-back', '--out', join(dir, 'x.jsonl'))).message).toMatch(
      /--shard writes a part for svc merge/,
    );
    expect((await run('--report', join(dir, 'r.json'))).message).toMatch(
      /--report is written by svc merge/,
    );
  });
});

describe('svc merge OUT PART...', () => {
  it('writes what one run writes, with its summary and report, from parts in any order', async () => {
    const dir = tempDir();
    const run = { operation: 'fix' as const, input: smallFile(dir), dir };
    const single = await singleRun(run, true);
    const parts = await shardRuns(run, 3);
    const merged = await merge(dir, [...parts].reverse());
    expect(merged.out).toBe(single.out);
    expect(merged.report).toBe(single.report);
    // The copy of row 3 is flagged by the merge's duplicates check (no shard saw both).
    const rows = merged.out.trim().split('\n');
    expect(rows).toHaveLength(25);
    expect(rows[24]).toContain('"flagged":true');
    expect(JSON.parse(merged.report)).toMatchObject({
      duplicate_groups: [{ kind: 'exact', rows: [3, 24] }],
    });
    // The counts and tokens of one run; the dataset checks' flag counted in.
    const counts = (lines: string[]) => lines.slice(lines.findIndex((l) => l.startsWith('fix:')));
    expect(counts(merged.summary).slice(0, 2)).toEqual(counts(single.summary).slice(0, 2));
    expect(merged.summary[0]).toMatch(/^fix: 25 samples, .*, 1 row skipped$/);
    // Priced once, as one run prices it (each shard rounded its own cost up: a micro-USD or two more).
    const cost = (lines: string[]) => lines.join('\n').match(/^usage: \$([\d.]+) /m)?.[1];
    expect(cost(merged.summary)).toBeDefined();
    expect(cost(merged.summary)).toBe(cost(single.summary));
    expect(merged.summary.join('\n')).toMatch(/your own runs: 3 shards, cli_\w+, cli_\w+, cli_\w+/);
  });

  it("records each shard's usage once as an owner run, the merge none, and charges nothing", async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const run = { operation: 'refine' as const, input: smallFile(dir), dir, data };
    await singleRun(run);
    const usage = () => {
      const db = openDatabase(data);
      try {
        return db
          .prepare(
            `SELECT run_id, label, model, samples, input_tokens AS input, output_tokens AS output
             FROM owner_usage ORDER BY id`,
          )
          .all() as {
          run_id: string;
          label: string;
          model: string;
          samples: number;
          input: number;
          output: number;
        }[];
      } finally {
        db.close();
      }
    };
    const single = usage();
    const parts = await shardRuns(run, 3);
    const sharded = usage().slice(single.length);
    await merge(dir, parts);
    expect(usage().length).toBe(single.length + sharded.length); // the merge records nothing
    expect(new Set(sharded.map((u) => u.label))).toEqual(
      new Set([0, 1, 2].map((i) => `small.jsonl (shard ${i}/3)`)),
    );
    for (const model of new Set(single.map((u) => u.model))) {
      const sum = (rows: typeof single, key: 'input' | 'output' | 'samples') =>
        rows.filter((u) => u.model === model).reduce((n, u) => n + u[key], 0);
      for (const key of ['input', 'output', 'samples'] as const) {
        expect(sum(sharded, key)).toBe(sum(single, key));
      }
    }
    const db = openDatabase(data);
    try {
      expect(
        ledgerEntries(db, OWNER_ACCOUNT_ID, { limit: 100 }).filter((e) => e.kind === 'charge'),
      ).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('names a missing shard, a doubled one, another N, another operation', async () => {
    const dir = tempDir();
    const input = smallFile(dir);
    const [a0, a1, a2] = await shardRuns({ operation: 'audit', input, dir }, 3);
    const [b0, b1] = await shardRuns({ operation: 'audit', input, dir }, 2);
    const [f0] = await shardRuns({ operation: 'fix', input, dir }, 3);
    const parts = [a0, a1, a2, b0, b1, f0] as string[];
    const [, , , , , fix0] = parts;
    const [p0, p1, p2, q0] = parts;
    expect((await mergeFails(dir, [p0!, p2!])).message).toBe(
      'shard 1 of 3 is missing: svc merge needs the parts of all 3 shards',
    );
    expect((await mergeFails(dir, [p0!])).message).toMatch(/^shards 1, 2 of 3 are missing/);
    expect((await mergeFails(dir, [p0!, p1!, p1!, p2!])).message).toBe(
      `shard 1/3 is given twice: ${p1} and ${p1}`,
    );
    expect((await mergeFails(dir, [p0!, p1!, p2!, q0!])).message).toMatch(
      /are parts of different runs: they differ in their number of shards \(3 and 2\)/,
    );
    expect((await mergeFails(dir, [p0!, p1!, fix0!])).message).toMatch(
      /are parts of different runs: they differ in their operation \("audit" and "fix"\)/,
    );
    // A part edited by hand to hold shard 0's first output row: both parts are named.
    const lines = readFileSync(p1!, 'utf8').split('\n');
    lines[1] = (lines[1] as string).replace(/^\{"position":\d+,/, '{"position":0,');
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    expect((await mergeFails(dir, [p0!, edited, p2!])).message).toMatch(
      /^output row 0 is in two parts \((.*edited\.jsonl and .*\.jsonl|.*\.jsonl and .*edited\.jsonl)\)$/,
    );
  });

  it('refuses the parts of an input with no rows, as one run of it is refused', async () => {
    const dir = tempDir();
    const input = join(dir, 'empty.jsonl');
    writeFileSync(input, '');
    const parts = await shardRuns({ operation: 'audit', input, dir }, 2);
    expect((await mergeFails(dir, parts)).message).toBe(
      "the parts' input has no rows, so nothing was written",
    );
    expect(existsSync(join(dir, 'm.jsonl'))).toBe(false);
  });

  it('refuses, before any work, an output that is a part, the input or the other output', async () => {
    const dir = tempDir();
    const input = smallFile(dir);
    const [p0, p1] = (await shardRuns({ operation: 'audit', input, dir }, 2)) as [string, string];
    const before = [p0, p1, input].map((path) => readFileSync(path, 'utf8'));
    const refused = async (out: string, extra: string[] = []) =>
      (
        await rejection(
          quietly(() => mergeCommand([out, p0, p1, '--data-dir', join(dir, 'data'), ...extra])),
        )
      ).message;
    // `svc merge p0.jsonl p0.jsonl p1.jsonl` wrote the merge over part 1, exit code 0.
    expect(await refused(p0)).toBe(
      `OUT ${p0} is part 1 of the merge: writing it would destroy it; name another file`,
    );
    expect(await refused(input)).toMatch(/^OUT .* is the input the shards read: writing it would/);
    expect(await refused(join(dir, 'm.jsonl'), ['--report', p1])).toMatch(
      /^--report .* is part 2 of the merge/,
    );
    expect(await refused(join(dir, 'm.jsonl'), ['--report', join(dir, 'm.jsonl')])).toMatch(
      /^--report .* is OUT: writing it would destroy it/,
    );
    expect([p0, p1, input].map((path) => readFileSync(path, 'utf8'))).toEqual(before);
    expect(existsSync(join(dir, 'm.jsonl'))).toBe(false);
  });

  it('refuses an unfinished part, a changed input, and reads a moved one with --input', async () => {
    const dir = tempDir();
    const input = smallFile(dir);
    const run = { operation: 'audit' as const, input, dir };
    const single = await singleRun(run);
    const parts = await shardRuns(run, 2);
    const [p0, p1] = parts as [string, string];

    const cut = join(dir, 'cut.jsonl');
    const lines = readFileSync(p1, 'utf8').trim().split('\n');
    writeFileSync(cut, lines.slice(0, -1).join('\n') + '\n');
    expect((await mergeFails(dir, [p0, cut])).message).toBe(
      `shard 1/2 (${cut}) ends without its trailer: the shard did not finish (run it again)`,
    );
    expect(existsSync(join(dir, 'm.jsonl.partial'))).toBe(false); // nothing half-written left
    expect((await mergeFails(dir, [p0, join(dir, 'nothing.jsonl')])).message).toMatch(
      /^cannot read the part/,
    );
    expect((await mergeFails(dir, [p0, input])).message).toMatch(/is not a part written by svc/);
    // A part of an earlier svc: its rows carry no clean verdicts, its trailer no tally.
    const old = join(dir, 'old.jsonl');
    const header = { ...(JSON.parse(lines[0] as string) as object), svc_part: 1 };
    writeFileSync(old, [JSON.stringify(header), ...lines.slice(1)].join('\n') + '\n');
    expect((await mergeFails(dir, [p0, old])).message).toBe(
      `${old} is a part of format 1, written by another version of svc (this one merges ` +
        'format 2): run its shards again with this version',
    );

    const moved = join(dir, 'moved.jsonl');
    writeFileSync(moved, readFileSync(input));
    writeFileSync(input, readFileSync(input, 'utf8') + '{"question": "q", "answer": "#### 1"}\n');
    expect((await mergeFails(dir, parts)).message).toMatch(/is not the file the shards read/);
    // The same size, one byte changed: its digest is made while the merge reads it, and the
    // output is not kept.
    const original = readFileSync(moved);
    const changed = Buffer.from(original);
    const at = changed.indexOf('eggs');
    changed[at] = 'E'.charCodeAt(0);
    writeFileSync(input, changed);
    expect((await mergeFails(dir, parts)).message).toMatch(
      new RegExp(`^${input}.* is not the file the shards read \\(${original.length} bytes`),
    );
    expect(existsSync(join(dir, 'm.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'm.jsonl.partial'))).toBe(false);
    rmSync(input);
    expect((await mergeFails(dir, parts)).message).toMatch(
      /^cannot read .*small\.jsonl: .*\(give its path here with --input FILE\)$/,
    );
    expect((await merge(dir, parts, ['--input', moved])).out).toBe(single.out);
  });
});

describe("the dataset checks' scan shared out among the shards", () => {
  const scanLineOf = (summary: string[]) => summary.find((l) => l.includes("checks' scan"));

  /** Runs `fn` with the file pass cut into slices of `bytes` (many slices of a small file). */
  async function inSlicesOf<T>(bytes: number, fn: () => Promise<T>): Promise<T> {
    const saved = process.env.SVC_FILE_PASS_SLICE_BYTES;
    process.env.SVC_FILE_PASS_SLICE_BYTES = String(bytes);
    try {
      return await fn();
    } finally {
      if (saved === undefined) delete process.env.SVC_FILE_PASS_SLICE_BYTES;
      else process.env.SVC_FILE_PASS_SLICE_BYTES = saved;
    }
  }

  it('comes with the parts, and the merge is one run, byte for byte', async () => {
    const dir = tempDir();
    const run = { operation: 'audit' as const, input: smallFile(dir), dir };
    const single = await singleRun(run, true);
    const parts = await inSlicesOf(1500, () => shardRuns(run, 3));
    for (const part of parts) expect(existsSync(`${part}.scan`)).toBe(true);
    const merged = await inSlicesOf(1500, () => merge(dir, parts));
    expect(merged.out).toBe(single.out);
    expect(merged.report).toBe(single.report);
    const slices = Number(/\((\d+) slices\)/.exec(scanLineOf(merged.summary) ?? '')?.[1]);
    expect(slices).toBeGreaterThan(3);
  });

  it('is made in the merge where a part brings none, a damaged one or another slicing', async () => {
    const dir = tempDir();
    const run = { operation: 'fix' as const, input: smallFile(dir), dir };
    const single = await singleRun(run, true);
    const parts = await inSlicesOf(1500, () => shardRuns(run, 3));
    const [p0, p1] = parts as [string, string, string];
    rmSync(`${p0}.scan`);
    const damaged = readFileSync(`${p1}.scan`);
    writeFileSync(`${p1}.scan`, damaged.subarray(0, Math.floor(damaged.length * 0.6)));

    const merged = await inSlicesOf(1500, () => merge(dir, parts));
    expect(merged.out).toBe(single.out);
    expect(merged.report).toBe(single.report);
    const [taken = 0, slices = -1] =
      /: (\d+) of (\d+) slices came with the parts, the rest scanned here/
        .exec(scanLineOf(merged.summary) ?? '')
        ?.slice(1)
        .map(Number) ?? [];
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(slices / 2);

    // Slices of another size are other slices: none is taken.
    const resliced = await inSlicesOf(2500, () => merge(dir, parts));
    expect(resliced.out).toBe(single.out);
    expect(scanLineOf(resliced.summary)).toMatch(/: 0 of \d+ slices came with the parts/);
  });
});
