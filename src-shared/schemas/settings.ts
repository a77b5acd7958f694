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

export const Settings = z.object({
  rates: RatesSetting,
  limits: LimitsSetting,
  server: ServerSetting,
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
};
