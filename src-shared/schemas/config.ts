import { z } from 'zod';

/** Stage configurations. Out-of-range or mistyped values are refused before any work. */

export const VOTES_MIN = 1;
export const VOTES_MAX = 9;
export const MAX_ATTEMPTS_MIN = 1;
export const MAX_ATTEMPTS_MAX = 5;
export const CONVENTIONS_MAX_CHARS = 4000;

export const AuditConfig = z
  .strictObject({
    votes: z
      .int()
      .min(VOTES_MIN)
      .max(VOTES_MAX)
      .default(1)
      .meta({
        description: `Audit passes per sample, ${VOTES_MIN}..${VOTES_MAX}.`,
      }),
  })
  .meta({ id: 'AuditConfig' });

export const FixConfig = z
  .strictObject({
    max_attempts: z
      .int()
      .min(MAX_ATTEMPTS_MIN)
      .max(MAX_ATTEMPTS_MAX)
      .default(3)
      .meta({
        description: `Upper bound on fix attempts per sample, ${MAX_ATTEMPTS_MIN}..${MAX_ATTEMPTS_MAX}.`,
      }),
  })
  .meta({ id: 'FixConfig' });

export const RefineConfig = z
  .strictObject({
    audit: AuditConfig.default({ votes: 1 }),
    fix: FixConfig.default({ max_attempts: 3 }),
    reaudit: AuditConfig.default({ votes: 1 }),
  })
  .meta({ id: 'RefineConfig' });

export const Conventions = z.string().max(CONVENTIONS_MAX_CHARS).meta({
  description: 'Dataset conventions the audit must not treat as defects.',
});

export type AuditConfig = z.output<typeof AuditConfig>;
export type FixConfig = z.output<typeof FixConfig>;
export type RefineConfig = z.output<typeof RefineConfig>;

export const OPERATIONS = ['audit', 'fix', 'refine'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const CONFIG_BY_OPERATION = {
  audit: AuditConfig,
  fix: FixConfig,
  refine: RefineConfig,
} as const;
