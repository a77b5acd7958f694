import { AppError, fieldErrorsFrom } from '../../src-shared/errors.ts';
import {
  DEFAULT_SETTINGS,
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  Settings,
  UPSTREAM_ROLES,
  type UpstreamRole,
  type UpstreamRoleSetting,
} from '../../src-shared/schemas/settings.ts';
import { describeEngines, resolveEngines } from '../service/runs/backend-select.ts';
import { maskSecret, sealSecret, shownSecret } from '../service/owner/secret-box.ts';
import { readSettings, writeSettingsSection } from '../store/settings.ts';
import type { z } from 'zod';
import { parseCommandArgs } from './args.ts';
import { processIo, resolveDataDir, withDatabase, type CliIo } from './keys.ts';

export const SETTINGS_USAGE = `usage: svc settings get [KEY] [--json] [--data-dir DIR]   every setting (or one); keys are masked
       svc settings set KEY VALUE [--data-dir DIR]      VALUE - reads it from stdin (for keys)
       svc settings unset KEY [--data-dir DIR]          back to the default
  keys: rates.svc-audit-1.input, rates.svc-audit-1.output, rates.svc-fix-1.input, rates.svc-fix-1.output
        limits.cost_cap_usd_per_request, limits.requests_per_minute_native, limits.requests_per_minute_v1
        server.enabled, server.port
        dedup.threshold           near duplicates: Jaccard of word pairs, 0.5..1 (default 0.8)
        engine.workers            builtin engine threads, 0..256 (0: main thread; unset: one per core)
        upstream.audit, upstream.fix                    off: the builtin engine
        upstream.ROLE.base_url    e.g. http://127.0.0.1:11434/v1 (turns the role on)
        upstream.ROLE.model       unset: the server's only model
        upstream.ROLE.api_key     use -: svc settings set upstream.audit.api_key - < key.txt
        upstream.ROLE.timeout_seconds (default ${DEFAULT_UPSTREAM_TIMEOUT_SECONDS}), upstream.ROLE.concurrency (default ${DEFAULT_UPSTREAM_CONCURRENCY})
  env: SVC_DATA_DIR (the flag wins); SVC_UPSTREAM_URL|_MODEL|_KEY|_TIMEOUT|_CONCURRENCY and
       SVC_AUDIT_UPSTREAM_* / SVC_FIX_UPSTREAM_* override the upstream settings;
       SVC_ENGINE_WORKERS overrides engine.workers.`;

/** What `svc settings` reads and writes; tests inject their own. */
export interface SettingsIo extends CliIo {
  /** The whole of standard input (for `set KEY -`). */
  stdin(): Promise<string>;
}

async function readAllStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('reading the value from stdin (end with Ctrl-D)\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export const processSettingsIo: SettingsIo = { ...processIo, stdin: readAllStdin };

type Section = keyof Settings;
type Value = string | number | boolean | null;

const invalid = (message: string): AppError => new AppError('invalid_request', message);

function unknownKey(key: string): AppError {
  return invalid(`unknown setting ${JSON.stringify(key)}\n\n${SETTINGS_USAGE}`);
}

const parseNumber = (key: string, raw: string): number => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n))
    throw invalid(`${key} takes a number, got ${JSON.stringify(raw)}`);
  return n;
};

const parseBoolean = (key: string, raw: string): boolean => {
  if (/^(true|on|yes|1)$/i.test(raw)) return true;
  if (/^(false|off|no|0)$/i.test(raw)) return false;
  throw invalid(`${key} takes true or false, got ${JSON.stringify(raw)}`);
};

const isRole = (word: string | undefined): word is UpstreamRole =>
  (UPSTREAM_ROLES as readonly (string | undefined)[]).includes(word);

const ROLE_FIELDS = ['base_url', 'model', 'api_key', 'timeout_seconds', 'concurrency'] as const;
type RoleField = (typeof ROLE_FIELDS)[number];
const isRoleField = (word: string | undefined): word is RoleField =>
  (ROLE_FIELDS as readonly (string | undefined)[]).includes(word);

const newRole = (baseUrl: string): UpstreamRoleSetting => ({
  base_url: baseUrl,
  model: null,
  api_key: null,
  timeout_seconds: DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  concurrency: DEFAULT_UPSTREAM_CONCURRENCY,
});

/**
 * The new value of the section `key` belongs to, with `key` set to `raw`
 * (`null`: back to its default). Validated by the caller with the section's schema.
 */
function changed(
  settings: Settings,
  key: string,
  raw: string | null,
): { section: Section; value: unknown; note?: string } {
  const [section, a, b, ...rest] = key.split('.');
  if (rest.length > 0) throw unknownKey(key);
  switch (section) {
    case 'rates': {
      if (a !== 'svc-audit-1' && a !== 'svc-fix-1') throw unknownKey(key);
      if (b !== 'input' && b !== 'output') throw unknownKey(key);
      const value = raw === null ? DEFAULT_SETTINGS.rates[a][b] : parseNumber(key, raw);
      return {
        section,
        value: { ...settings.rates, [a]: { ...settings.rates[a], [b]: value } },
      };
    }
    case 'limits': {
      if (b !== undefined || a === undefined || !(a in settings.limits)) throw unknownKey(key);
      const name = a as keyof Settings['limits'];
      const value = raw === null ? DEFAULT_SETTINGS.limits[name] : parseNumber(key, raw);
      return { section, value: { ...settings.limits, [name]: value } };
    }
    case 'server': {
      if (b !== undefined) throw unknownKey(key);
      if (a === 'enabled') {
        const value = raw === null ? DEFAULT_SETTINGS.server.enabled : parseBoolean(key, raw);
        return { section, value: { ...settings.server, enabled: value } };
      }
      if (a === 'port') {
        const value = raw === null ? DEFAULT_SETTINGS.server.port : parseNumber(key, raw);
        return { section, value: { ...settings.server, port: value } };
      }
      throw unknownKey(key);
    }
    case 'dedup': {
      if (a !== 'threshold' || b !== undefined) throw unknownKey(key);
      const value = raw === null ? DEFAULT_SETTINGS.dedup.threshold : parseNumber(key, raw);
      return { section, value: { ...settings.dedup, threshold: value } };
    }
    case 'engine': {
      if (a !== 'workers' || b !== undefined) throw unknownKey(key);
      const value = raw === null ? DEFAULT_SETTINGS.engine.workers : parseNumber(key, raw);
      return { section, value: { ...settings.engine, workers: value } };
    }
    case 'contamination': {
      if (a !== 'benchmarks' || b !== undefined) throw unknownKey(key);
      const value = raw ?? DEFAULT_SETTINGS.contamination.benchmarks;
      return { section, value: { ...settings.contamination, benchmarks: value } };
    }
    case 'upstream': {
      if (!isRole(a)) throw unknownKey(key);
      const current = settings.upstream[a];
      const withRole = (role: UpstreamRoleSetting | null) => ({
        section: 'upstream' as const,
        value: { ...settings.upstream, [a]: role },
      });
      if (b === undefined) {
        if (raw === null || /^(off|builtin|none)$/i.test(raw)) return withRole(null);
        throw invalid(
          `${key} takes only "off" (the builtin engine); turn it on with ${key}.base_url URL`,
        );
      }
      if (!isRoleField(b)) throw unknownKey(key);
      if (b === 'base_url') {
        if (raw === null) return withRole(null);
        if (!current) return withRole(newRole(raw));
        // A key is sent only to the server it was given for (as in the app's Settings).
        const keyed =
          current.api_key !== null &&
          current.base_url.replace(/\/+$/, '') !== raw.replace(/\/+$/, '');
        return {
          ...withRole({ ...current, base_url: raw, api_key: keyed ? null : current.api_key }),
          ...(keyed
            ? {
                note:
                  `the stored API key of upstream.${a} was for ${current.base_url} and was removed; ` +
                  `if the new server needs one: svc settings set upstream.${a}.api_key -`,
              }
            : {}),
        };
      }
      if (!current) {
        if (raw === null) return withRole(null);
        throw invalid(`upstream.${a} is off: set upstream.${a}.base_url first`);
      }
      switch (b) {
        case 'model':
          return withRole({ ...current, model: raw });
        case 'api_key':
          return withRole({ ...current, api_key: raw === null ? null : sealSecret(raw) });
        case 'timeout_seconds':
          return withRole({
            ...current,
            timeout_seconds:
              raw === null ? DEFAULT_UPSTREAM_TIMEOUT_SECONDS : parseNumber(key, raw),
          });
        case 'concurrency':
          return withRole({
            ...current,
            concurrency: raw === null ? DEFAULT_UPSTREAM_CONCURRENCY : parseNumber(key, raw),
          });
      }
      throw unknownKey(key);
    }
    default:
      throw unknownKey(key);
  }
}

/** The settings with every key masked: what `get` shows. */
function shownSettings(settings: Settings): Record<string, unknown> {
  const upstream: Record<string, unknown> = {};
  for (const role of UPSTREAM_ROLES) {
    const r = settings.upstream[role];
    upstream[role] = r === null ? null : { ...r, api_key: shownSecret(r.api_key) };
  }
  return { ...settings, upstream };
}

/** `rates.svc-audit-1.input = 0.5` lines, in schema order. */
function flatten(value: unknown, prefix: string, out: [string, Value][]): void {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.push([prefix, value as Value]);
  }
}

function display(key: string, value: Value): string {
  if (value === null) {
    if (/^upstream\.\w+$/.test(key)) return 'off (builtin)';
    if (key.endsWith('.model')) return "(unset: the server's only model)";
    if (key === 'engine.workers') return '(unset: one per core)';
    return '(none)';
  }
  return String(value);
}

function lines(settings: Settings): [string, string][] {
  const flat: [string, Value][] = [];
  flatten(shownSettings(settings), '', flat);
  return flat.map(([key, value]) => [key, display(key, value)]);
}

/** `svc settings get|set|unset`. */
export function settingsCommand(argv: string[], io: SettingsIo = processSettingsIo): Promise<void> {
  return runSettings(argv, io);
}

async function runSettings(argv: string[], io: SettingsIo): Promise<void> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'help':
    case '--help':
    case '-h':
      io.stdout(SETTINGS_USAGE);
      return;
    case 'get': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
        true,
      );
      const [only, ...extra] = positionals;
      if (extra.length > 0) throw invalid(`unexpected argument ${JSON.stringify(extra[0])}`);
      const settings = withDatabase(resolveDataDir(values['data-dir'], io.env), readSettings);
      const all = lines(settings);
      if (only !== undefined) {
        const found = all.filter(([key]) => key === only || key.startsWith(`${only}.`));
        if (found.length === 0) throw unknownKey(only);
        if (values.json === true) io.stdout(JSON.stringify(Object.fromEntries(found), null, 2));
        else for (const [key, value] of found) io.stdout(`${key} = ${value}`);
        return;
      }
      const resolved = resolveEngines(settings, io.env);
      if (values.json === true) {
        const inForce: Record<string, unknown> = {};
        for (const role of UPSTREAM_ROLES) {
          const { engine, origin } = resolved[role];
          inForce[role] =
            engine.kind === 'upstream'
              ? {
                  engine: 'upstream',
                  base_url: engine.config.baseURL,
                  model: engine.config.model,
                  api_key: engine.config.apiKey === null ? null : maskSecret(engine.config.apiKey),
                  timeout_seconds: engine.config.timeoutMs / 1000,
                  concurrency: engine.config.concurrency,
                  origin,
                }
              : engine.kind === 'unavailable'
                ? { engine: 'unavailable', message: engine.message, origin }
                : { engine: 'builtin', origin };
        }
        io.stdout(JSON.stringify({ ...shownSettings(settings), in_force: inForce }, null, 2));
        return;
      }
      const width = Math.max(...all.map(([key]) => key.length));
      for (const [key, value] of all) io.stdout(`${key.padEnd(width)}  ${value}`);
      io.stdout('');
      io.stdout('in force (the environment wins over these settings):');
      for (const line of describeEngines(resolved)) io.stdout(`  ${line}`);
      return;
    }
    case 'set':
    case 'unset': {
      // util.parseArgs would take a negative number for an option; it is a value here.
      const NEGATIVE = '\u0000';
      const { values, positionals } = parseCommandArgs(
        rest.map((arg) => (/^-[\d.]/.test(arg) ? NEGATIVE + arg : arg)),
        { 'data-dir': { type: 'string' } },
        true,
      );
      const [key, rawValue, ...extra] = positionals.map((p) => p.replace(NEGATIVE, ''));
      const wanted = sub === 'set' ? 2 : 1;
      if (key === undefined || (sub === 'set' && rawValue === undefined)) {
        throw invalid(
          `svc settings ${sub} needs ${wanted === 2 ? 'KEY VALUE' : 'KEY'}\n\n${SETTINGS_USAGE}`,
        );
      }
      if (extra.length > 0 || (sub === 'unset' && rawValue !== undefined)) {
        throw invalid(`unexpected argument ${JSON.stringify(extra[0] ?? rawValue)}`);
      }
      const isKey = key.endsWith('.api_key');
      let raw: string | null = null;
      if (sub === 'set') {
        raw = rawValue === '-' ? (await io.stdin()).replace(/\r?\n$/, '') : (rawValue ?? '');
        if (raw === '') throw invalid(`${key}: the value is empty`);
        if (isKey && rawValue !== '-') {
          io.stderr(
            'note: a key given as an argument stays in your shell history; ' +
              `prefer: svc settings set ${key} - < file`,
          );
        }
      }
      const shown = raw === null ? '(default)' : isKey ? maskSecret(raw) : raw;
      withDatabase(resolveDataDir(values['data-dir'], io.env), (db) => {
        const update = changed(readSettings(db), key, raw);
        const parsed = Settings.shape[update.section].safeParse(update.value);
        if (!parsed.success) throw settingRefused(parsed.error, key, update.section, shown);
        writeSettingsSection(db, update.section, parsed.data as never);
        io.stdout(`${key} = ${shown}`);
        if (update.note) io.stderr(`note: ${update.note}`);
      });
      return;
    }
    default:
      throw invalid(
        sub === undefined
          ? `svc settings needs a subcommand\n\n${SETTINGS_USAGE}`
          : `unknown settings subcommand ${JSON.stringify(sub)}\n\n${SETTINGS_USAGE}`,
      );
  }
}

/**
 * A value the settings' schema refuses, said in the words of the command:
 * the key as typed and the value given (`limits.cost_cap_usd_per_request
 * -5: Too small...`), where the schema's own error named a JSON Pointer
 * inside the section. A section the new value leaves invalid elsewhere names
 * that other key.
 */
function settingRefused(error: z.ZodError, key: string, section: string, shown: string): AppError {
  const errors = fieldErrorsFrom(error);
  const first = errors[0];
  const at = first ? [section, ...first.path.split('/').slice(1)].join('.') : key;
  const reason = first?.message ?? 'not a valid value';
  return new AppError(
    'invalid_request',
    at === key
      ? `${key} cannot be ${shown}: ${reason}`
      : `${key} cannot be ${shown}: ${at} would be invalid: ${reason}`,
    { errors, param: key },
  );
}
