import { z } from 'zod';
import { UPSTREAM_ROLES, UpstreamRoleSetting } from '../schemas/settings.ts';

/**
 * The engine of each model role as the Settings screen shows and edits it:
 * builtin, or an OpenAI-compatible server. API keys never travel back to the
 * UI: it sees a mask (`sk-…abcd`) and sends a new key, `keep` or `clear`.
 */

export const UpstreamRoleName = z.enum(UPSTREAM_ROLES);

/** Where a value in force comes from: `settings`, `default`, or an environment variable's name. */
const Origins = z.record(z.string(), z.string());

export const EngineRoleView = z.object({
  role: UpstreamRoleName,
  model_id: z.enum(['svc-audit-1', 'svc-fix-1']),
  /** What is stored in the settings (`null`: builtin), the key masked. */
  stored: UpstreamRoleSetting.omit({ api_key: true })
    .extend({
      api_key: z
        .string()
        .nullable()
        .meta({ description: 'The stored key masked (sk-…abcd), or where it is sealed.' }),
    })
    .nullable(),
  /** What runs now: the settings with the environment's overrides applied. */
  in_force: z.object({
    kind: z.enum(['builtin', 'upstream', 'unavailable']),
    description: z.string(),
    origin: Origins,
  }),
});
export type EngineRoleView = z.infer<typeof EngineRoleView>;

export const EnginesView = z.object({
  audit: EngineRoleView,
  fix: EngineRoleView,
  /** How a stored key is kept: `electron-safe-storage` in the desktop app, `plain` in `svc serve`. */
  secret_storage: z.string(),
});
export type EnginesView = z.infer<typeof EnginesView>;

export const ApiKeyChange = z.union([
  z.strictObject({ keep: z.literal(true) }),
  z.strictObject({ set: z.string().trim().min(1).max(4096) }),
  z.strictObject({ clear: z.literal(true) }),
]);
export type ApiKeyChange = z.infer<typeof ApiKeyChange>;

/** An upstream role as the Settings form sends it: the key as a change, never read back. */
export const UpstreamRoleInput = UpstreamRoleSetting.omit({ api_key: true })
  .extend({ api_key: ApiKeyChange })
  .strict();

export const EngineUpdate = z.strictObject({
  role: UpstreamRoleName,
  /** `null`: back to the builtin engine (the stored key is forgotten). */
  upstream: UpstreamRoleInput.nullable(),
});

export const EngineTestRequest = z.strictObject({
  role: UpstreamRoleName,
  /** Values to test before saving them; without: what is in force for the role. */
  upstream: UpstreamRoleInput.optional(),
});
export type EngineUpdate = z.infer<typeof EngineUpdate>;

export const EngineTest = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** The model ids the server lists (`GET /models`), at most 50. */
  models: z.array(z.string()),
  elapsed_ms: z.int(),
});
export type EngineTest = z.infer<typeof EngineTest>;
