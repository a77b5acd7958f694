import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../service/billing/keys.ts';
import { openDatabase } from '../store/db.ts';
import { formatTable, keysCommand } from './keys.ts';
import { capture, rejection, tempDirs } from './testing/cli-test-kit.ts';

const tempDir = tempDirs('svc-cli-keys-');

const KEY = /^svc_[A-Za-z0-9_-]{43}$/;

describe('svc keys', () => {
  it('create prints the key alone on stdout, and it authenticates', async () => {
    const dir = tempDir();
    const { io, out, err } = capture();
    await keysCommand(['create', '--name', 'laptop', '--data-dir', dir], io);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(KEY);
    expect(err.join('\n')).toMatch(/created key_[0-9a-f]{16} \(laptop\); .*shown/);
    const db = openDatabase(dir);
    expect(authenticate(db, `Bearer ${out[0]!}`).accountId).toBe(1);
    db.close();
  });

  it('a real process writes exactly one line, the key, on stdout', async () => {
    const dir = tempDir();
    const module = pathToFileURL(join(import.meta.dirname, 'keys.ts')).href;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { keysCommand } from ${JSON.stringify(module)};
           await keysCommand(process.argv.slice(1));`,
          'create',
          '--data-dir',
          dir,
        ],
        (error, out) => {
          if (error) reject(new Error('the keys process failed', { cause: error }));
          else resolve(out);
        },
      );
    });
    expect(stdout).toMatch(/^svc_[A-Za-z0-9_-]{43}\n$/);
  });

  it('reads the data dir from SVC_DATA_DIR when there is no flag; the flag wins', async () => {
    const fromEnv = tempDir();
    const fromFlag = tempDir();
    await keysCommand(['create', '--name', 'env'], capture({ SVC_DATA_DIR: fromEnv }).io);
    await keysCommand(
      ['create', '--name', 'flag', '--data-dir', fromFlag],
      capture({ SVC_DATA_DIR: fromEnv }).io,
    );
    const list = capture({ SVC_DATA_DIR: fromEnv });
    await keysCommand(['list', '--json'], list.io);
    expect((JSON.parse(list.out.join('\n')) as { name: string }[]).map((k) => k.name)).toEqual([
      'env',
    ]);
  });

  it('lists keys as a table and as JSON, and revokes', async () => {
    const dir = tempDir();
    const empty = capture();
    await keysCommand(['list', '--data-dir', dir], empty.io);
    expect(empty.out).toEqual(['no API keys yet: create one with `svc keys create`']);

    const made = capture();
    await keysCommand(['create', '--name', 'ci', '--data-dir', dir], made.io);
    const key = made.out[0]!;
    const json = capture();
    await keysCommand(['list', '--json', '--data-dir', dir], json.io);
    const [record] = JSON.parse(json.out.join('\n')) as { id: string; prefix: string }[];
    expect(record?.prefix).toBe(key.slice(0, 12));
    expect(json.out.join('\n')).not.toContain(key);

    const table = capture();
    await keysCommand(['list', '--data-dir', dir], table.io);
    expect(table.out[0]).toMatch(
      /^ID\s+NAME\s+PREFIX\s+CREATED \(UTC\)\s+LAST USED \(UTC\)\s+STATUS$/,
    );
    expect(table.out[1]).toMatch(
      new RegExp(
        `^${record!.id}\\s+ci\\s+${key.slice(0, 12)}\\.\\.\\.\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+-\\s+active$`,
      ),
    );

    const revoked = capture();
    await keysCommand(['revoke', record!.id, '--data-dir', dir], revoked.io);
    expect(revoked.out).toEqual([`revoked ${record!.id} (${key.slice(0, 12)}...)`]);
    const again = capture();
    await keysCommand(['revoke', record!.id, '--data-dir', dir], again.io);
    expect(again.out[0]).toMatch(/was already revoked at \d{4}-/);
    const after = capture();
    await keysCommand(['list', '--data-dir', dir], after.io);
    expect(after.out[1]).toMatch(/revoked$/);

    const db = openDatabase(dir);
    expect(() => authenticate(db, `Bearer ${key}`)).toThrow(/revoked/);
    db.close();
  });

  it('answers clear errors for bad usage', async () => {
    const dir = tempDir();
    const io = capture().io;
    expect((await rejection(keysCommand(['revoke', 'key_nope', '--data-dir', dir], io))).code).toBe(
      'not_found',
    );
    for (const argv of [
      [],
      ['destroy'],
      ['revoke', '--data-dir', dir],
      ['create', 'extra', '--data-dir', dir],
      ['create', '--colour', 'red'],
      ['list', '--name', 'x'],
    ]) {
      expect((await rejection(keysCommand(argv, io))).code).toBe('invalid_request');
    }
  });
});

describe('formatTable', () => {
  it('pads every column but the last', () => {
    expect(formatTable(['A', 'BB', 'C'], [['xxx', 'y', 'zzzz']])).toEqual([
      'A    BB  C',
      'xxx  y   zzzz',
    ]);
  });
});
