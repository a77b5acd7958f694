import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  capEngineWorkers,
  closeEnginePool,
  engineWorkers,
  filePassPool,
} from '../service/runs/pool/engine-pool.ts';
import { oneCore } from '../service/threads/one-core.ts';
import { fitWorkersToFiles, passFiles, startFilePassAhead, startMergeAhead } from './pool-ahead.ts';

const VARS = [
  'SVC_ENGINE_WORKERS',
  'SVC_FILE_PASS',
  'SVC_FILE_PASS_SLICE_BYTES',
  'SVC_UPSTREAM_URL',
  'SVC_FIX_UPSTREAM_URL',
];
const saved = new Map(VARS.map((name) => [name, process.env[name]]));
const workersStarted = (): number => filePassPool()?.live ?? 0;

// On one core a batch command starts no worker ahead at all (threads/one-core.ts): nothing to see.
describe.skipIf(oneCore())('the engine workers started ahead of svc audit|fix|refine', () => {
  beforeEach(() => {
    for (const name of VARS) Reflect.deleteProperty(process.env, name);
    process.env.SVC_ENGINE_WORKERS = '2';
  });
  afterEach(async () => {
    await closeEnginePool();
    for (const [name, value] of saved) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  });

  it('start for a JSON Lines file whose whole pass runs on them', () => {
    startFilePassAhead(['data.jsonl', '--out', 'clean.jsonl', '--report', 'r.json']);
    expect(workersStarted()).toBe(2);
  });

  it("start for a shard's pass of a JSON Lines file", () => {
    startFilePassAhead(['data.jsonl', '--shard', '1/4', '--out', 'part.jsonl']);
    expect(workersStarted()).toBe(2);
  });

  it('do not start where the pass runs otherwise or the command will refuse', () => {
    const passes = [
      ['data.jsonl', '--write-back', '--out', 'clean.csv'],
      ['data.csv', '--out', 'clean.jsonl'],
      ['data.jsonl', 'other.jsonl'],
      ['--out', 'clean.jsonl'],
      ['data.jsonl', '--no-such-option'],
    ];
    for (const argv of passes) {
      startFilePassAhead(argv);
      expect(workersStarted(), argv.join(' ')).toBe(0);
    }
  });

  it('do not start when the environment sends a role upstream or asks for rows', () => {
    process.env.SVC_FIX_UPSTREAM_URL = 'http://127.0.0.1:11434/v1';
    startFilePassAhead(['data.jsonl']);
    expect(workersStarted()).toBe(0);
    process.env.SVC_FIX_UPSTREAM_URL = 'off';
    process.env.SVC_FILE_PASS = 'rows';
    startFilePassAhead(['data.jsonl']);
    expect(workersStarted()).toBe(0);
    delete process.env.SVC_FILE_PASS;
    startFilePassAhead(['data.jsonl']);
    expect(workersStarted()).toBe(2);
  });
});

describe.skipIf(oneCore())('the engine workers started ahead of svc merge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-merge-ahead-'));
  const part = (name: string, input: string): string => {
    const path = join(dir, name);
    writeFileSync(
      path,
      `${JSON.stringify({ svc_part: 2, input: { path: input } })}\n{"position":0}\n`,
    );
    return path;
  };
  beforeEach(() => {
    process.env.SVC_ENGINE_WORKERS = '2';
  });
  afterEach(async () => {
    await closeEnginePool();
    const value = saved.get('SVC_ENGINE_WORKERS');
    if (value === undefined) Reflect.deleteProperty(process.env, 'SVC_ENGINE_WORKERS');
    else process.env.SVC_ENGINE_WORKERS = value;
  });

  it('start when the input the first part names (or --input) is JSON Lines', () => {
    startMergeAhead([
      'out.jsonl',
      part('a.part', '/data/in.jsonl'),
      part('b.part', '/data/in.csv'),
    ]);
    expect(workersStarted()).toBe(2);
  });

  it('do not start for another format, a part without a header or a missing part', () => {
    const csv = part('c.part', '/data/in.csv');
    const broken = join(dir, 'broken.part');
    writeFileSync(broken, 'not a header');
    for (const argv of [
      ['out.jsonl', csv],
      ['out.jsonl', broken],
      ['out.jsonl', join(dir, 'missing.part')],
      ['out.jsonl', csv, '--input', '/data/in.parquet'],
      ['out.jsonl'],
    ]) {
      startMergeAhead(argv);
      expect(workersStarted(), argv.join(' ')).toBe(0);
    }
    startMergeAhead(['out.jsonl', csv, '--input', '/data/in.ndjson']);
    expect(workersStarted()).toBe(2);
  });
});

describe('how the threads of a batch command compile', () => {
  // A hot function in a worker started after `tuneV8ForWorkers`, and one in the main thread, as
  // V8 traces their optimization: each one's modes (`kSynchronous`: in place). The main thread's
  // probe runs once the worker has ended: two threads tracing at once interleave their lines in
  // the one stdout (CI read "kConcurrent0x3bb7de40a6a1", another thread's address glued to it).
  const modes = (workers: number): { worker: string; main: string } => {
    const probe = (name: string): string =>
      `function ${name}(a) { let s = 0; for (const x of a) s += x * 2 + (x & 3); return s; }
       const a = Array.from({ length: 1000 }, (_, i) => i);
       let t = 0; for (let k = 0; k < 20000; k++) t += ${name}(a);`;
    const script = `
      import { Worker } from 'node:worker_threads';
      import { tuneV8ForWorkers } from ${JSON.stringify(join(import.meta.dirname, 'pool-ahead.ts'))};
      tuneV8ForWorkers();
      new Worker(${JSON.stringify(probe('svcWorkerProbe'))}, { eval: true }).on('exit', () => {
        ${probe('svcMainProbe')}
      });`;
    const trace = execFileSync(
      process.execPath,
      ['--trace-opt', '--input-type=module', '--eval', script],
      {
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          ...process.env,
          SVC_ENGINE_WORKERS: String(workers),
          SVC_V8_DEFAULTS: '',
          NODE_OPTIONS: '',
        },
      },
    );
    const of = (name: string): string =>
      [
        ...trace.matchAll(
          new RegExp(
            `${name}[^\\n]*TURBOFAN_JS[^\\n]*mode: ConcurrencyMode::(kSynchronous|kConcurrent)`,
            'g',
          ),
        ),
      ]
        .map((found) => found[1])
        .join(',');
    return { worker: of('svcWorkerProbe'), main: of('svcMainProbe') };
  };

  it('a worker in place when the engine workers fill the cores, the main thread never', () => {
    const full = modes(availableParallelism());
    expect(full.worker).toMatch(/^(kSynchronous,?)+$/);
    expect(full.main).toMatch(/^(kConcurrent,?)+$/);
    const none = modes(0);
    expect(none.worker).toMatch(/^(kConcurrent,?)+$/);
    expect(none.main).toMatch(/^(kConcurrent,?)+$/);
  }, 60_000);
});

describe("no more engine workers than a command's files have slices", () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fit-workers-'));
  const file = (name: string, bytes: number): string => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.alloc(bytes, 0x61));
    return path;
  };
  afterEach(async () => {
    capEngineWorkers(Infinity);
    await closeEnginePool();
    for (const name of ['SVC_ENGINE_WORKERS', 'SVC_FILE_PASS_SLICE_BYTES']) {
      const value = saved.get(name);
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  });

  it('one worker a slice of the input, at least one, at most those chosen', () => {
    process.env.SVC_ENGINE_WORKERS = '16';
    fitWorkersToFiles([file('small.jsonl', 10)]);
    expect(engineWorkers()).toBe(1);
    capEngineWorkers(Infinity);
    fitWorkersToFiles([file('three.jsonl', 2 * 262_144 + 1)]);
    expect(engineWorkers()).toBe(3);
    capEngineWorkers(Infinity);
    // a merge's parts together; the slice size in force
    process.env.SVC_FILE_PASS_SLICE_BYTES = '100';
    fitWorkersToFiles([file('a.part', 250), file('b.part', 250)]);
    expect(engineWorkers()).toBe(5);
    capEngineWorkers(Infinity);
    fitWorkersToFiles([file('large.jsonl', 100 * 100)]);
    expect(engineWorkers()).toBe(16);
    capEngineWorkers(Infinity);
    // no workers stays no workers; a file that cannot be read leaves the count
    process.env.SVC_ENGINE_WORKERS = '0';
    fitWorkersToFiles([file('none.jsonl', 10)]);
    expect(engineWorkers()).toBe(0);
    capEngineWorkers(Infinity);
    process.env.SVC_ENGINE_WORKERS = '4';
    fitWorkersToFiles([join(dir, 'missing.jsonl')]);
    expect(engineWorkers()).toBe(4);
    fitWorkersToFiles([]);
    fitWorkersToFiles([dir]); // not a regular file (a FIFO's size says nothing either)
    expect(engineWorkers()).toBe(4);
  });

  it('a pool already started is resized down to the cap', () => {
    process.env.SVC_ENGINE_WORKERS = '4';
    startFilePassAhead(['data.jsonl']);
    expect(filePassPool()?.size).toBe(4);
    fitWorkersToFiles([file('tiny.jsonl', 10)]);
    expect(filePassPool()?.size).toBe(1);
  });

  it("reads the pass's input and a merge's parts from the arguments", () => {
    expect(passFiles('pass', ['in.jsonl', '--out', 'o.jsonl', '--shard', '1/4'])).toEqual([
      'in.jsonl',
    ]);
    expect(passFiles('merge', ['out.jsonl', 'p0.jsonl', 'p1.jsonl', '--report', 'r.json'])).toEqual(
      ['p0.jsonl', 'p1.jsonl'],
    );
    expect(passFiles('pass', ['in.jsonl', '--no-such-option'])).toEqual([]);
    // the row-at-a-time pass splits every batch between all the workers: no bound from bytes
    expect(passFiles('pass', ['in.csv', '--out', 'o.jsonl'])).toEqual([]);
    expect(passFiles('pass', ['in.jsonl', '--write-back', '--out', 'o.jsonl'])).toEqual([]);
    // a merge scans its input too: --input, else the one the first part's header names
    expect(passFiles('merge', ['-', 'p0.jsonl', '--input', 'in.jsonl'])).toEqual([
      'p0.jsonl',
      'in.jsonl',
    ]);
    const part = join(dir, 'p.part');
    writeFileSync(part, `${JSON.stringify({ svc_part: 2, input: { path: '/data/in.jsonl' } })}\n`);
    expect(passFiles('merge', ['out.jsonl', part])).toEqual([part, '/data/in.jsonl']);
  });
});
