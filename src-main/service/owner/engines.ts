import { AppError } from '../../../src-shared/errors.ts';
import type {
  EngineRoleView,
  EngineTest,
  EngineUpdate,
  EnginesView,
} from '../../../src-shared/owner/engines.ts';
import type { UpstreamRole, UpstreamRoleSetting } from '../../../src-shared/schemas/settings.ts';
import { describeRole } from '../../engine/upstream/backend.ts';
import { UpstreamClient } from '../../engine/upstream/client.ts';
import { writeSettingsSection } from '../../store/settings.ts';
import { resolveEngines, type Env } from '../runs/backend-select.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OwnerHandlers } from './handler-types.ts';
import { promised } from './promised.ts';
import { getSecretBox, sealSecret, shownSecret } from './secret-box.ts';

/**
 * The owner methods on the engines (the Settings screen's "Models" card):
 * which engine runs each model role, stored and in force, and a connection
 * test. The same settings as `svc settings set upstream.*`; the environment
 * still wins over them (the view says so, value by value).
 */

const MODEL_OF: Record<UpstreamRole, 'svc-audit-1' | 'svc-fix-1'> = {
  audit: 'svc-audit-1',
  fix: 'svc-fix-1',
};
const TEST_TIMEOUT_MS = 10_000;

function view(ctx: ServiceContext, env: Env): EnginesView {
  const settings = ctx.settings();
  const resolved = resolveEngines(settings, env);
  const role = (name: UpstreamRole): EngineRoleView => {
    const stored = settings.upstream[name];
    const { engine, origin } = resolved[name];
    return {
      role: name,
      model_id: MODEL_OF[name],
      stored: stored ? { ...stored, api_key: shownSecret(stored.api_key) } : null,
      in_force: { kind: engine.kind, description: describeRole(engine), origin },
    };
  };
  return { audit: role('audit'), fix: role('fix'), secret_storage: getSecretBox().id };
}

/** The stored role after an update, the key sealed; a kept key stays only with its own server. */
function nextRole(
  current: UpstreamRoleSetting | null,
  update: NonNullable<EngineUpdate['upstream']>,
  role: UpstreamRole,
): UpstreamRoleSetting {
  const baseUrl = update.base_url.replace(/\/+$/, '');
  let apiKey: UpstreamRoleSetting['api_key'] = null;
  if ('set' in update.api_key) apiKey = sealSecret(update.api_key.set);
  else if ('keep' in update.api_key && current?.api_key) {
    if (current.base_url.replace(/\/+$/, '') !== baseUrl) {
      // A key is sent only to the server it was given for.
      throw new AppError(
        'invalid_request',
        `the stored API key of the ${role} model was given for ${current.base_url}: ` +
          `enter the key for ${baseUrl}, or remove the key`,
        { param: '/upstream/api_key' },
      );
    }
    apiKey = current.api_key;
  }
  return { ...update, base_url: baseUrl, api_key: apiKey };
}

export function engineHandlers(
  ctx: ServiceContext,
  env: Env = process.env,
): Pick<OwnerHandlers, 'getEngines' | 'updateEngine' | 'testEngine'> {
  return {
    getEngines: () => promised(() => view(ctx, env)),
    updateEngine: ({ role, upstream }) =>
      promised(() => {
        const { upstream: current } = ctx.settings();
        const next = upstream === null ? null : nextRole(current[role], upstream, role);
        writeSettingsSection(ctx.db, 'upstream', { ...current, [role]: next });
        return view(ctx, env);
      }),
    testEngine: async ({ role, upstream }): Promise<EngineTest> => {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      // Unsaved values are tested as they would be in force once saved (the environment still wins).
      const settings = ctx.settings();
      const candidate = upstream
        ? {
            ...settings,
            upstream: {
              ...settings.upstream,
              [role]: nextRole(settings.upstream[role], upstream, role),
            },
          }
        : settings;
      const { engine } = resolveEngines(candidate, env)[role];
      if (engine.kind === 'builtin') {
        return {
          ok: true,
          message: `${MODEL_OF[role]} runs on the builtin engine`,
          models: [],
          elapsed_ms: 0,
        };
      }
      if (engine.kind === 'unavailable') {
        return { ok: false, message: engine.message, models: [], elapsed_ms: 0 };
      }
      const client = new UpstreamClient({
        ...engine.config,
        timeoutMs: Math.min(engine.config.timeoutMs, TEST_TIMEOUT_MS),
      });
      try {
        const models = await client.listModels(AbortSignal.timeout(TEST_TIMEOUT_MS));
        const wanted = engine.config.model;
        const found = wanted === null || models.includes(wanted);
        const message =
          wanted === null
            ? models.length === 1
              ? `reachable; its only model ${models[0] ?? ''} will be used`
              : `reachable, but it serves ${models.length} models: choose one`
            : found
              ? `reachable; it serves ${wanted}`
              : `reachable, but it does not list ${wanted}`;
        return {
          ok: wanted === null ? models.length === 1 : found,
          message,
          models: models.slice(0, 50),
          elapsed_ms: elapsed(),
        };
      } catch (error) {
        const message = error instanceof AppError ? error.message : String(error);
        return { ok: false, message, models: [], elapsed_ms: elapsed() };
      }
    },
  };
}
