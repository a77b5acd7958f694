import type { Migration } from '../migrate.ts';

/**
 * The owner's own runs (the app's and `svc audit|fix|refine FILE`) spend no
 * credit: they record their usage instead, append-only, one line per batch
 * and model: the tokens and what they would cost at the rates in force
 * (integer micro-USD, never charged). Credit, holds and charges belong to
 * API keys.
 */
export const ownerUsage: Migration = {
  version: 7,
  name: 'owner usage',
  up: `
    CREATE TABLE owner_usage (
      id INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('app', 'cli')),
      operation TEXT NOT NULL CHECK (operation IN ('audit', 'fix', 'refine')),
      label TEXT NOT NULL,
      model TEXT NOT NULL,
      samples INTEGER NOT NULL CHECK (samples >= 0),
      input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
      output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
      passes INTEGER NOT NULL CHECK (passes >= 0),
      cost_micro INTEGER NOT NULL CHECK (typeof(cost_micro) = 'integer' AND cost_micro >= 0),
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE INDEX owner_usage_run ON owner_usage(run_id);
    CREATE INDEX owner_usage_day ON owner_usage(created_at);
    CREATE TRIGGER owner_usage_append_only_update BEFORE UPDATE ON owner_usage
      BEGIN SELECT RAISE(ABORT, 'owner_usage is append-only'); END;
    CREATE TRIGGER owner_usage_append_only_delete BEFORE DELETE ON owner_usage
      BEGIN SELECT RAISE(ABORT, 'owner_usage is append-only'); END;
  `,
};
