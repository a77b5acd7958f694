import type { UpstreamRole } from '../../../src-shared/schemas/settings.ts';

/**
 * The environment's say on the upstream engines (see backend-select.ts),
 * apart from the engines themselves: a command reads it before it loads
 * them (cli/pool-ahead.ts).
 */

export type Env = Readonly<Record<string, string | undefined>>;

export type Field = 'base_url' | 'model' | 'api_key' | 'timeout_seconds' | 'concurrency';

const ENV_SUFFIX: Record<Field, string> = {
  base_url: 'URL',
  model: 'MODEL',
  api_key: 'KEY',
  timeout_seconds: 'TIMEOUT',
  concurrency: 'CONCURRENCY',
};

/** The role's own variable, else the shared one; empty values count as unset. */
export function envFor(
  env: Env,
  role: UpstreamRole,
  field: Field,
): { name: string; value: string } | undefined {
  const suffix = ENV_SUFFIX[field];
  for (const name of [`SVC_${role.toUpperCase()}_UPSTREAM_${suffix}`, `SVC_UPSTREAM_${suffix}`]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** Whether the environment sends a role to an upstream server (a URL other than `off`). */
export function upstreamInEnv(env: Env, role: UpstreamRole): boolean {
  const url = envFor(env, role, 'base_url');
  return url !== undefined && !OFF_URL.test(url.value);
}

/** A base URL that keeps a role on the builtin engine whatever the settings say. */
export const OFF_URL = /^(off|builtin|none)$/i;
