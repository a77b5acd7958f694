import { BENCHMARK_NAMES, parseBenchmarkChoice } from '../benchmarks.ts';
import { z } from 'zod';

/** Owner-editable settings, stored in SQLite and validated on every read and write. */

export const RatesSetting = z.object({
  'svc-audit-1': z.object({ input: z.number().min(0), output: z.number().min(0) }),
  'svc-fix-1': z.object({ input: z.number().min(0), output: z.number().min(0) }),
});

export const LimitsSetting = z.object({
  cost_cap_usd_per_request: z.number().positive().max(1000),
  requests_per_minute_native: z.int().min(1).max(100_000),
  requests_per_minute_v1: z.int().min(1).max(100_000),
});

export const ServerSetting = z.object({
  enabled: z.boolean(),
  port: z.int().min(0).max(65535),
});

/** The dataset checks: how alike two samples must be to be near duplicates. */
export const DedupSetting = z.object({
  threshold: z
    .number()
    .min(0.5)
    .max(1)
    .meta({ description: 'Jaccard similarity of word pairs, 0.5..1 (default 0.8).' }),
});

/** The `contamination` check: which public benchmarks' test items it looks for. */
export const ContaminationSetting = z.object({
  benchmarks: z
    .string()
    .max(200)
    .superRefine((value, ctx) => {
      const choice = parseBenchmarkChoice(value);
      if (typeof choice === 'object' && 'error' in choice)
        ctx.addIssue({ code: 'custom', message: choice.error });
    })
    .meta({
      description: `\`all\` (default), \`none\`, or names separated by commas: ${BENCHMARK_NAMES.join(', ')}.`,
    }),
});

/** The builtin engine's worker threads (the engine pool). */
export const EngineSetting = z.object({
  workers: z
    .int()
    .min(0)
    .max(256)
    .nullable()
    .meta({
      description:
        'Worker threads that run the builtin engine on large batches; null: one per core; ' +
        '0: none, the engine runs on the main thread.',
    }),
});

/** The model roles an upstream (OpenAI-compatible) server can take. */
export const UPSTREAM_ROLES = ['audit', 'fix'] as const;
export type UpstreamRole = (typeof UPSTREAM_ROLES)[number];

export const DEFAULT_UPSTREAM_TIMEOUT_SECONDS = 120;
export const DEFAULT_UPSTREAM_CONCURRENCY = 4;

/**
 * A secret as stored: `data` is what the secret box named `box` made of it
 * (`plain`: the secret itself; in the desktop app, Electron's safeStorage).
 */
export const StoredSecret = z.object({
  box: z.string().min(1).max(64),
  data: z.string().max(16_384),
});
export type StoredSecret = z.infer<typeof StoredSecret>;

/** One model role served by an OpenAI-compatible server (Ollama, llama.cpp, vLLM, OpenAI...). */
export const UpstreamRoleSetting = z.object({
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .max(2000)
    .meta({ examples: ['http://127.0.0.1:11434/v1'] }),
  model: z
    .string()
    .min(1)
    .max(200)
    .nullable()
    .meta({ description: "`null`: the server's only model (its `GET /models`)." }),
  api_key: StoredSecret.nullable(),
  timeout_seconds: z.number().positive().max(3600),
  concurrency: z.int().min(1).max(64),
});
export type UpstreamRoleSetting = z.infer<typeof UpstreamRoleSetting>;

/** Per model role: `null` runs the builtin engine. */
export const UpstreamSetting = z.object({
  audit: UpstreamRoleSetting.nullable(),
  fix: UpstreamRoleSetting.nullable(),
});

export const Settings = z.object({
  rates: RatesSetting,
  limits: LimitsSetting,
  server: ServerSetting,
  upstream: UpstreamSetting,
  dedup: DedupSetting,
  engine: EngineSetting,
  contamination: ContaminationSetting,
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  rates: {
    'svc-audit-1': { input: 0.5, output: 2.0 },
    'svc-fix-1': { input: 1.0, output: 4.0 },
  },
  limits: {
    cost_cap_usd_per_request: 5.0,
    requests_per_minute_native: 100,
    requests_per_minute_v1: 600,
  },
  server: { enabled: true, port: 7331 },
  upstream: { audit: null, fix: null },
  dedup: { threshold: 0.8 },
  engine: { workers: null },
  contamination: { benchmarks: 'all' },
};
