import { z } from 'zod';

/** Keys, credits, the ledger and the history, as the Keys screen shows them. */

export const KeyRecord = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export const CreatedKey = z.object({ key: z.string(), record: KeyRecord });

export const Credits = z.object({
  balance_usd: z.number(),
  held_usd: z.number(),
  available_usd: z.number(),
});

export const LedgerEntry = z.object({
  id: z.int(),
  kind: z.enum(['grant', 'hold', 'release', 'charge']),
  amount_usd: z.number(),
  memo: z.string(),
  request_id: z.string().nullable(),
  key_id: z.string().nullable(),
  created_at: z.string(),
});

export const SpendDay = z.object({
  day: z.string().meta({ description: 'UTC day, YYYY-MM-DD.' }),
  charged_usd: z.number().meta({ description: 'Charged to API keys.' }),
  usage_usd: z.number().meta({
    description:
      'The owner’s own runs (app and CLI): what their tokens cost at the rates, not charged.',
  }),
  usage_tokens: z.int().meta({ description: 'Their tokens, input and output.' }),
});

export const HistoryItem = z.object({
  id: z.int(),
  operation: z.enum(['fix', 'refine']),
  source: z.string(),
  request_id: z.string(),
  samples: z.int().nullable(),
  cost_usd: z.number(),
  created_at: z.string(),
});
