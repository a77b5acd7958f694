import { AppError } from '../../src-shared/errors.ts';
import { createKey, getKey, listKeys, revokeKey, type KeyRecord } from '../service/billing/keys.ts';
import { openDatabase, type Db } from '../store/db.ts';
import { parseCommandArgs } from './args.ts';
import { defaultDataDir } from './paths.ts';

export const KEYS_USAGE = `usage: svc keys create [--name N] [--data-dir DIR]   make a key; prints only the key (shown once)
       svc keys list [--json] [--data-dir DIR]             every key: id, name, prefix, dates, status
       svc keys revoke ID [--data-dir DIR]                 revoke a key (requests with it get 401)
  env: SVC_DATA_DIR (the flag wins).`;

/** Where a command writes (one line per call) and what environment it reads; tests inject their own. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
  env: NodeJS.ProcessEnv;
}

export const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

/** `--data-dir`, else `SVC_DATA_DIR`, else the app's own data folder. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SVC_DATA_DIR ?? defaultDataDir(env);
}

export function withDatabase<T>(dataDir: string, work: (db: Db) => T): T {
  const db = openDatabase(dataDir);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** An ISO timestamp as `YYYY-MM-DD HH:MM` (UTC); `-` for none. */
export const shortTime = (iso: string | null): string =>
  iso === null ? '-' : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

const isHelp = (word: string | undefined): boolean =>
  word === 'help' || word === '--help' || word === '-h';

function noPositionals(positionals: string[], usage: string): void {
  if (positionals.length > 0) {
    throw new AppError(
      'invalid_request',
      `unexpected argument ${JSON.stringify(positionals[0])}\n\n${usage}`,
    );
  }
}

function keyRows(keys: KeyRecord[]): string[] {
  return formatTable(
    ['ID', 'NAME', 'PREFIX', 'CREATED (UTC)', 'LAST USED (UTC)', 'STATUS'],
    keys.map((k) => [
      k.id,
      k.name === '' ? '-' : k.name,
      `${k.prefix}...`,
      shortTime(k.created_at),
      shortTime(k.last_used_at),
      k.revoked_at === null ? 'active' : 'revoked',
    ]),
  );
}

/** `svc keys create|list|revoke`. */
export function keysCommand(argv: string[], io: CliIo = processIo): Promise<void> {
  return Promise.resolve().then(() => runKeys(argv, io));
}

function runKeys(argv: string[], io: CliIo): void {
  const [sub, ...rest] = argv;
  if (isHelp(sub)) {
    io.stdout(KEYS_USAGE);
    return;
  }
  switch (sub) {
    case 'create': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { name: { type: 'string' }, 'data-dir': { type: 'string' } },
        true,
      );
      noPositionals(positionals, KEYS_USAGE);
      const { key, record } = withDatabase(resolveDataDir(values['data-dir'], io.env), (db) =>
        createKey(db, { name: values.name }),
      );
      // stdout carries the key alone, so `KEY=$(svc keys create)` works.
      io.stdout(key);
      io.stderr(
        `created ${record.id}${record.name === '' ? '' : ` (${record.name})`}; ` +
          'this is the only time the key is shown: store it now',
      );
      return;
    }
    case 'list': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
        true,
      );
      noPositionals(positionals, KEYS_USAGE);
      const keys = withDatabase(resolveDataDir(values['data-dir'], io.env), listKeys);
      if (values.json === true) {
        io.stdout(JSON.stringify(keys, null, 2));
      } else if (keys.length === 0) {
        io.stdout('no API keys yet: create one with `svc keys create`');
      } else {
        for (const line of keyRows(keys)) io.stdout(line);
      }
      return;
    }
    case 'revoke': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { 'data-dir': { type: 'string' } },
        true,
      );
      const [id, ...extra] = positionals;
      if (id === undefined) {
        throw new AppError('invalid_request', `svc keys revoke needs a key id\n\n${KEYS_USAGE}`);
      }
      noPositionals(extra, KEYS_USAGE);
      const { before, after } = withDatabase(resolveDataDir(values['data-dir'], io.env), (db) => ({
        before: getKey(db, id),
        after: revokeKey(db, id),
      }));
      io.stdout(
        before.revoked_at === null
          ? `revoked ${after.id} (${after.prefix}...)`
          : `${after.id} (${after.prefix}...) was already revoked at ${before.revoked_at}`,
      );
      return;
    }
    default:
      throw new AppError(
        'invalid_request',
        sub === undefined
          ? `svc keys needs a subcommand\n\n${KEYS_USAGE}`
          : `unknown keys subcommand ${JSON.stringify(sub)}\n\n${KEYS_USAGE}`,
      );
  }
}
