import { createHash } from 'node:crypto';
import { AppError } from '../../../src-shared/errors.ts';
import {
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  UPSTREAM_ROLES,
  type Settings,
  type UpstreamRole,
  type UpstreamRoleSetting,
} from '../../../src-shared/schemas/settings.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import {
  createRolesBackend,
  describeRole,
  type EngineRoles,
  type RoleEngine,
} from '../../engine/upstream/backend.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { configureEngineWorkers } from './pool/pooled.ts';
import { envFor, OFF_URL, type Env, type Field } from './upstream-env.ts';
import { getSecretBox, maskSecret, openSecret, type SecretBox } from '../owner/secret-box.ts';

/**
 * Which engine runs each model role, from the settings (`upstream.audit`,
 * `upstream.fix`) and the environment, which wins:
 *
 *   SVC_UPSTREAM_URL, _MODEL, _KEY, _TIMEOUT (seconds), _CONCURRENCY   both roles
 *   SVC_AUDIT_UPSTREAM_URL, ... / SVC_FIX_UPSTREAM_URL, ...            one role (wins)
 *
 * A role is upstream when a base URL is set for it (either place); a URL of
 * `off` (or `builtin`) keeps that role builtin whatever the settings say.
 * Values resolve field by field, except the stored key: it is sent only to
 * the stored base URL, never to one the environment substitutes.
 */

export { envFor, type Env } from './upstream-env.ts';

export interface ResolvedRole {
  engine: RoleEngine;
  /** Where each value in force came from: `settings`, `default` or an environment variable. */
  origin: Partial<Record<Field, string>>;
}

const sameUrl = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function httpUrl(value: string, source: string): string {
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new AppError(
      'service_error',
      `${source} must be an http:// or https:// URL such as http://127.0.0.1:11434/v1, ` +
        `got ${JSON.stringify(value)}`,
    );
  }
  return value.replace(/\/+$/, '');
}

function number(
  value: string,
  source: string,
  { min, max, integer }: { min: number; max: number; integer: boolean },
): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new AppError(
      'service_error',
      `${source} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

export function resolveRole(
  role: UpstreamRole,
  stored: UpstreamRoleSetting | null,
  env: Env,
  box: SecretBox = getSecretBox(),
): ResolvedRole {
  const url = envFor(env, role, 'base_url');
  if (url && OFF_URL.test(url.value)) {
    return { engine: { kind: 'builtin' }, origin: { base_url: url.name } };
  }
  const rawUrl = url?.value ?? stored?.base_url;
  if (rawUrl === undefined) return { engine: { kind: 'builtin' }, origin: {} };
  const origin: ResolvedRole['origin'] = { base_url: url?.name ?? 'settings' };
  try {
    const baseURL = httpUrl(rawUrl, url?.name ?? `upstream.${role}.base_url`);
    const model = envFor(env, role, 'model');
    origin.model = model?.name ?? (stored?.model ? 'settings' : 'default');
    const envKey = envFor(env, role, 'api_key');
    const storedKey = stored?.api_key && sameUrl(stored.base_url, baseURL) ? stored.api_key : null;
    origin.api_key = envKey?.name ?? (storedKey ? 'settings' : 'default');
    const timeout = envFor(env, role, 'timeout_seconds');
    origin.timeout_seconds = timeout?.name ?? (stored ? 'settings' : 'default');
    const concurrency = envFor(env, role, 'concurrency');
    origin.concurrency = concurrency?.name ?? (stored ? 'settings' : 'default');
    const timeoutSeconds = timeout
      ? number(timeout.value, timeout.name, { min: 0.001, max: 3600, integer: false })
      : (stored?.timeout_seconds ?? DEFAULT_UPSTREAM_TIMEOUT_SECONDS);
    return {
      engine: {
        kind: 'upstream',
        config: {
          baseURL,
          model: model?.value ?? stored?.model ?? null,
          apiKey: envKey?.value ?? (storedKey ? openSecret(storedKey, box) : null),
          timeoutMs: Math.round(timeoutSeconds * 1000),
          concurrency: concurrency
            ? number(concurrency.value, concurrency.name, { min: 1, max: 64, integer: true })
            : (stored?.concurrency ?? DEFAULT_UPSTREAM_CONCURRENCY),
        },
      },
      origin,
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { engine: { kind: 'unavailable', message: error.message }, origin };
  }
}

export function resolveEngines(
  settings: Settings,
  env: Env = process.env,
  box: SecretBox = getSecretBox(),
): Record<UpstreamRole, ResolvedRole> {
  const [audit, fix] = UPSTREAM_ROLES.map((role) =>
    resolveRole(role, settings.upstream[role], env, box),
  ) as [ResolvedRole, ResolvedRole];
  return { audit, fix };
}

/** One line per role for people (`svc serve`, the CLI): never the key, at most its mask. */
export function describeEngines(resolved: Record<UpstreamRole, ResolvedRole>): string[] {
  return UPSTREAM_ROLES.map((role) => {
    const { engine, origin } = resolved[role];
    const model = role === 'audit' ? 'svc-audit-1' : 'svc-fix-1';
    const from = [...new Set(Object.values(origin).filter((o) => o !== 'default'))];
    const key =
      engine.kind === 'upstream' && engine.config.apiKey
        ? `, key ${maskSecret(engine.config.apiKey)}`
        : '';
    return `${model}: ${describeRole(engine)}${key}${from.length ? ` (from ${from.join(', ')})` : ''}`;
  });
}

const cache = new Map<string, EngineBackend>();
const MAX_CACHED = 16;
/** The settings whose `engine.workers` the pool was last configured with. */
let configuredFor: Settings | undefined;

/** What identifies a backend: the roles, with the key as a digest. */
function fingerprint(roles: EngineRoles): string {
  const role = (engine: RoleEngine): unknown =>
    engine.kind === 'upstream'
      ? {
          ...engine.config,
          apiKey:
            engine.config.apiKey === null
              ? null
              : createHash('sha256').update(engine.config.apiKey).digest('hex'),
        }
      : engine;
  return JSON.stringify({ audit: role(roles.audit), fix: role(roles.fix) });
}

/**
 * The engine backend in force: audit role builtin or upstream, fix role
 * builtin or upstream. Cheap enough to call per request (settings are cached,
 * backends are reused while their configuration holds), so a settings change
 * applies to the next request.
 */
export function selectBackend(ctx: ServiceContext, env: Env = process.env): EngineBackend {
  const settings = ctx.settings();
  // The builtin engine's worker threads follow the setting, as the backend does. The
  // settings object is the same until they change (store/settings.ts caches it), and
  // configuring reads the core count from the OS: done once per settings, not per request.
  if (settings !== configuredFor) {
    configureEngineWorkers(settings.engine.workers);
    configuredFor = settings;
  }
  const resolved = resolveEngines(settings, env);
  const roles: EngineRoles = { audit: resolved.audit.engine, fix: resolved.fix.engine };
  const key = fingerprint(roles);
  let backend = cache.get(key);
  if (!backend) {
    if (cache.size >= MAX_CACHED) cache.clear();
    backend = createRolesBackend(roles);
    cache.set(key, backend);
  }
  return backend;
}
