import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
} from '../../src-shared/schemas/settings.ts';
import { DB_FILE_NAME, openDatabase } from '../store/db.ts';
import { readSettings } from '../store/settings.ts';
import { settingsCommand } from './settings.ts';
import { capture, rejection, tempDirs } from './testing/cli-test-kit.ts';

const tempDir = tempDirs('svc-cli-settings-');

const KEY = 'sk-proj-Zq8xW3vB9nL2mK7pR4tY6uI1oA5sD0fGabcd';

const stored = (dir: string) => {
  const db = openDatabase(dir);
  try {
    return readSettings(db);
  } finally {
    db.close();
  }
};

describe('svc settings', () => {
  it('get lists every setting and the engines in force', async () => {
    const dir = tempDir();
    const { io, out } = capture();
    await settingsCommand(['get', '--data-dir', dir], io);
    const text = out.join('\n');
    expect(text).toMatch(/^rates\.svc-audit-1\.input\s+0\.5$/m);
    expect(text).toMatch(/^limits\.cost_cap_usd_per_request\s+5$/m);
    expect(text).toMatch(/^upstream\.audit\s+off \(builtin\)$/m);
    expect(text).toContain('svc-audit-1: builtin');
    expect(text).toContain('svc-fix-1: builtin');
  });

  it('set turns a role on with its base URL, then takes its model; off turns it back', async () => {
    const dir = tempDir();
    const run = (...args: string[]) => settingsCommand([...args, '--data-dir', dir], capture().io);
    await run('set', 'upstream.audit.base_url', 'http://127.0.0.1:11434/v1');
    await run('set', 'upstream.audit.model', 'llama3.1');
    await run('set', 'upstream.audit.timeout_seconds', '30');
    expect(stored(dir).upstream).toEqual({
      audit: {
        base_url: 'http://127.0.0.1:11434/v1',
        model: 'llama3.1',
        api_key: null,
        timeout_seconds: 30,
        concurrency: DEFAULT_UPSTREAM_CONCURRENCY,
      },
      fix: null,
    });
    const { io, out } = capture();
    await settingsCommand(['get', 'upstream.audit', '--data-dir', dir], io);
    expect(out).toContain('upstream.audit.model = llama3.1');
    await run('unset', 'upstream.audit.timeout_seconds');
    expect(stored(dir).upstream.audit?.timeout_seconds).toBe(DEFAULT_UPSTREAM_TIMEOUT_SECONDS);
    await run('set', 'upstream.audit', 'off');
    expect(stored(dir).upstream).toEqual({ audit: null, fix: null });
  });

  it('sets and resets rates, limits and server settings', async () => {
    const dir = tempDir();
    const run = (...args: string[]) => settingsCommand([...args, '--data-dir', dir], capture().io);
    await run('set', 'rates.svc-fix-1.output', '6.5');
    await run('set', 'limits.requests_per_minute_v1', '1200');
    await run('set', 'server.enabled', 'false');
    const after = stored(dir);
    expect(after.rates['svc-fix-1']).toEqual({ input: 1, output: 6.5 });
    expect(after.limits.requests_per_minute_v1).toBe(1200);
    expect(after.server.enabled).toBe(false);
    await run('unset', 'rates.svc-fix-1.output');
    expect(stored(dir).rates).toEqual(DEFAULT_SETTINGS.rates);
  });

  it('sets the engine workers, shows the default as one per core, and resets it', async () => {
    const dir = tempDir();
    const run = (...args: string[]) => settingsCommand([...args, '--data-dir', dir], capture().io);
    const shown = async () => {
      const { io, out } = capture();
      await settingsCommand(['get', 'engine.workers', '--data-dir', dir], io);
      return out.join('\n');
    };
    expect(await shown()).toBe('engine.workers = (unset: one per core)');
    await run('set', 'engine.workers', '0');
    expect(stored(dir).engine).toEqual({ workers: 0 });
    expect(await shown()).toBe('engine.workers = 0');
    await run('unset', 'engine.workers');
    expect(stored(dir).engine).toEqual({ workers: null });
  });

  it.each([
    [['set', 'rates.svc-audit-2.input', '1'], /unknown setting "rates.svc-audit-2.input"/],
    [['set', 'engine.workers', '1.5'], /workers/],
    [['set', 'engine.workers', '-1'], /workers/],
    [['set', 'limits.cost_cap_usd_per_request', '-1'], /cost_cap_usd_per_request/],
    [['set', 'limits.cost_cap_usd_per_request', 'lots'], /takes a number/],
    [['set', 'server.port', '70000'], /port/],
    [
      ['set', 'upstream.audit.model', 'llama3.1'],
      /upstream\.audit is off: set upstream\.audit\.base_url first/,
    ],
    [['set', 'upstream.audit.base_url', 'localhost:11434'], /http:\/\/ or https:\/\/ URL/],
    [['set', 'upstream.audit', 'on'], /takes only "off"/],
    [['set', 'upstream.audit.model'], /needs KEY VALUE/],
    [['frob'], /unknown settings subcommand "frob"/],
  ])('refuses %j', async (args, message) => {
    const dir = tempDir();
    const error = await rejection(settingsCommand([...args, '--data-dir', dir], capture().io));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
    expect(stored(dir)).toEqual(DEFAULT_SETTINGS);
  });

  it('reads a key from stdin, stores it, and never shows it in full', async () => {
    const dir = tempDir();
    await settingsCommand(
      ['set', 'upstream.fix.base_url', 'https://api.openai.com/v1', '--data-dir', dir],
      capture().io,
    );
    const set = capture({}, `${KEY}\n`);
    await settingsCommand(['set', 'upstream.fix.api_key', '-', '--data-dir', dir], set.io);
    expect(stored(dir).upstream.fix?.api_key).toEqual({ box: 'plain', data: KEY });
    expect(set.out).toEqual(['upstream.fix.api_key = sk-…abcd']);
    expect(set.err).toEqual([]);

    for (const args of [['get'], ['get', '--json'], ['get', 'upstream.fix.api_key']]) {
      const got = capture({ SVC_UPSTREAM_MODEL: 'gpt-4o-mini' });
      await settingsCommand([...args, '--data-dir', dir], got.io);
      expect(got.all()).not.toContain(KEY);
      expect(got.all()).not.toContain(KEY.slice(4, -4));
      expect(got.all()).toContain('sk-…abcd');
    }
    const json = capture({ SVC_UPSTREAM_MODEL: 'gpt-4o-mini' });
    await settingsCommand(['get', '--json', '--data-dir', dir], json.io);
    const parsed = JSON.parse(json.out.join('\n')) as {
      upstream: { fix: { api_key: string } };
      in_force: { fix: { engine: string; model: string; api_key: string; origin: object } };
    };
    expect(parsed.upstream.fix.api_key).toBe('sk-…abcd');
    expect(parsed.in_force.fix).toMatchObject({
      engine: 'upstream',
      model: 'gpt-4o-mini',
      api_key: 'sk-…abcd',
      origin: { base_url: 'settings', model: 'SVC_UPSTREAM_MODEL', api_key: 'settings' },
    });
  });

  it('warns about a key given as an argument, and drops a key when the URL changes', async () => {
    const dir = tempDir();
    await settingsCommand(
      ['set', 'upstream.audit.base_url', 'http://127.0.0.1:8080/v1', '--data-dir', dir],
      capture().io,
    );
    const direct = capture();
    await settingsCommand(['set', 'upstream.audit.api_key', KEY, '--data-dir', dir], direct.io);
    expect(direct.err.join('\n')).toMatch(/shell history/);
    expect(direct.all()).not.toContain(KEY);
    const moved = capture();
    await settingsCommand(
      ['set', 'upstream.audit.base_url', 'http://127.0.0.1:9090/v1', '--data-dir', dir],
      moved.io,
    );
    expect(moved.err.join('\n')).toMatch(
      /stored API key of upstream\.audit was for http:\/\/127\.0\.0\.1:8080\/v1 and was removed/,
    );
    // the key never follows the role to another server
    expect(stored(dir).upstream.audit?.api_key).toBeNull();
  });

  it('makes the database readable by its owner only once a key may be in it', async () => {
    const dir = tempDir();
    await settingsCommand(
      ['set', 'upstream.audit.base_url', 'http://127.0.0.1:8080/v1', '--data-dir', dir],
      capture().io,
    );
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, DB_FILE_NAME)).mode & 0o777).toBe(0o600);
    }
  });

  it('reads the data dir from SVC_DATA_DIR; the flag wins', async () => {
    const fromEnv = tempDir();
    const fromFlag = tempDir();
    await settingsCommand(['set', 'server.port', '8000'], capture({ SVC_DATA_DIR: fromEnv }).io);
    await settingsCommand(
      ['set', 'server.port', '9000', '--data-dir', fromFlag],
      capture({ SVC_DATA_DIR: fromEnv }).io,
    );
    expect(stored(fromEnv).server.port).toBe(8000);
    expect(stored(fromFlag).server.port).toBe(9000);
  });
});

describe('svc settings as a real process', () => {
  const svc = resolve(import.meta.dirname, '..', '..', 'bin', 'svc.js');
  const runSvc = (args: string[], stdin = '', env: NodeJS.ProcessEnv = {}) =>
    new Promise<{ code: number | null; output: string }>((done, fail) => {
      const child = spawn(process.execPath, [svc, ...args], {
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, output }));
      child.stdin.end(stdin);
    });

  it('takes the key on stdin and never prints it, in any command', async () => {
    const dir = tempDir();
    const outputs: string[] = [];
    const steps: [string[], string, NodeJS.ProcessEnv][] = [
      [['settings', 'set', 'upstream.audit.base_url', 'http://127.0.0.1:11434/v1'], '', {}],
      [['settings', 'set', 'upstream.audit.api_key', '-'], `${KEY}\n`, {}],
      [['settings', 'get'], '', {}],
      [['settings', 'get', '--json'], '', {}],
      [
        ['settings', 'get'],
        '',
        { SVC_UPSTREAM_KEY: KEY, SVC_UPSTREAM_URL: 'http://127.0.0.1:1/v1' },
      ],
    ];
    for (const [args, stdin, env] of steps) {
      const { code, output } = await runSvc([...args, '--data-dir', dir], stdin, env);
      expect(code, output).toBe(0);
      outputs.push(output);
    }
    expect(outputs.join('\n')).not.toContain(KEY);
    expect(outputs[1]).toBe('upstream.audit.api_key = sk-…abcd\n');
    expect(outputs[4]).toContain('svc-fix-1: upstream');
    expect(stored(dir).upstream.audit?.api_key?.data).toBe(KEY);
  });

  it('names a refused value by its key and the value given, and stores nothing', async () => {
    const dir = tempDir();
    const set = (key: string, value: string) =>
      rejection(settingsCommand(['set', key, value, '--data-dir', dir], capture().io));
    expect((await set('limits.cost_cap_usd_per_request', '-5')).message).toBe(
      'limits.cost_cap_usd_per_request cannot be -5: Too small: expected number to be >0',
    );
    expect(await set('dedup.threshold', '2')).toMatchObject({
      code: 'invalid_request',
      param: 'dedup.threshold',
      message: 'dedup.threshold cannot be 2: Too big: expected number to be <=1',
    });
    expect((await set('rates.svc-fix-1.output', '-1')).message).toMatch(
      /^rates\.svc-fix-1\.output cannot be -1: /,
    );
    expect(stored(dir)).toEqual(DEFAULT_SETTINGS);
  });

  it('exits 2 with a clear message for an unknown key', async () => {
    const { code, output } = await runSvc([
      'settings',
      'set',
      'nope',
      '1',
      '--data-dir',
      tempDir(),
    ]);
    expect(code).toBe(2);
    expect(output).toMatch(/^svc: unknown setting "nope"/);
  });
});
