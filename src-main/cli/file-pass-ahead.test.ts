import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEnginePool, filePassPool } from '../service/runs/pool/engine-pool.ts';
import { startFilePassAhead } from './file-pass-ahead.ts';

const VARS = ['SVC_ENGINE_WORKERS', 'SVC_FILE_PASS', 'SVC_UPSTREAM_URL', 'SVC_FIX_UPSTREAM_URL'];
const saved = new Map(VARS.map((name) => [name, process.env[name]]));
const workersStarted = (): number => filePassPool()?.live ?? 0;

describe('the engine workers started ahead of svc audit|fix|refine', () => {
  beforeEach(() => {
    for (const name of VARS) delete process.env[name];
    process.env.SVC_ENGINE_WORKERS = '2';
  });
  afterEach(async () => {
    await closeEnginePool();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('start for a JSON Lines file whose whole pass runs on them', () => {
    startFilePassAhead(['data.jsonl', '--out', 'clean.jsonl', '--report', 'r.json']);
    expect(workersStarted()).toBe(2);
  });

  it('do not start where the pass runs otherwise or the command will refuse', () => {
    const passes = [
      ['data.jsonl', '--shard', '1/4', '--out', 'part.jsonl'],
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
