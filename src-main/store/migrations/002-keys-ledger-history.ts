import type { Migration } from '../migrate.ts';

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * API keys (hashes only), the money ledger and the fix/refine history.
 *
 * The ledger is append-only: triggers refuse UPDATE and DELETE, so a balance
 * can always be re-derived from its rows. A hold is closed by exactly one
 * release or charge (a partial UNIQUE index on `hold_id`); a release frees
 * exactly what its hold reserved; a charge may also stand alone (app and CLI
 * runs are billed without a hold).
 */
export const keysLedgerHistory: Migration = {
  version: 2,
  name: 'api keys, ledger and history',
  up: `
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY CHECK (id GLOB 'key_?*'),
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL DEFAULT '',
      -- The first 12 characters of the key ('svc_' + 8), for display only.
      prefix TEXT NOT NULL CHECK (length(prefix) = 12 AND prefix GLOB 'svc_*'),
      -- SHA-256 of the whole key, lowercase hex. The key itself is never stored.
      hash TEXT NOT NULL UNIQUE CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
      created_at TEXT NOT NULL DEFAULT (${NOW}),
      last_used_at TEXT,
      revoked_at TEXT
    );
    CREATE INDEX api_keys_account ON api_keys(account_id);

    CREATE TABLE ledger (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('grant', 'hold', 'release', 'charge')),
      amount_micro INTEGER NOT NULL CHECK (typeof(amount_micro) = 'integer' AND amount_micro > 0),
      hold_id INTEGER REFERENCES ledger(id),
      request_id TEXT,
      key_id TEXT REFERENCES api_keys(id),
      memo TEXT NOT NULL DEFAULT '',
      meta TEXT CHECK (meta IS NULL OR json_valid(meta)),
      created_at TEXT NOT NULL DEFAULT (${NOW}),
      -- A release always closes a hold; grants and holds never point at one.
      CHECK (CASE kind
        WHEN 'release' THEN hold_id IS NOT NULL
        WHEN 'charge' THEN 1
        ELSE hold_id IS NULL
      END)
    );
    -- Balances and spend per day read only this index (covering).
    CREATE INDEX ledger_account_kind ON ledger(account_id, kind, created_at, amount_micro);
    -- Newest-first listing per account (the rowid rides along in every index).
    CREATE INDEX ledger_account ON ledger(account_id);
    -- A hold is closed at most once, by a release or a charge.
    CREATE UNIQUE INDEX ledger_hold_closed_once ON ledger(hold_id) WHERE hold_id IS NOT NULL;

    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN
      SELECT RAISE(ABORT, 'the ledger is append-only: UPDATE is not allowed');
    END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN
      SELECT RAISE(ABORT, 'the ledger is append-only: DELETE is not allowed');
    END;
    CREATE TRIGGER ledger_closes_a_hold BEFORE INSERT ON ledger
    WHEN NEW.hold_id IS NOT NULL
    BEGIN
      SELECT RAISE(ABORT, 'hold_id must point at a hold of the same account')
      WHERE NOT EXISTS (
        SELECT 1 FROM ledger h
        WHERE h.id = NEW.hold_id AND h.kind = 'hold' AND h.account_id = NEW.account_id
      );
      SELECT RAISE(ABORT, 'a release frees exactly the amount of its hold')
      WHERE NEW.kind = 'release'
        AND NEW.amount_micro <> (SELECT amount_micro FROM ledger WHERE id = NEW.hold_id);
    END;

    -- Running totals per account, kept by the trigger below in the same
    -- statement as each ledger row, so a balance costs one lookup instead of a
    -- scan of every row (store/ledger.ts recomputeBalances is the definition;
    -- the tests hold the two equal). Nothing else writes this table.
    CREATE TABLE ledger_totals (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
      granted_micro INTEGER NOT NULL DEFAULT 0,
      charged_micro INTEGER NOT NULL DEFAULT 0,
      held_micro INTEGER NOT NULL DEFAULT 0 CHECK (held_micro >= 0)
    );
    CREATE TRIGGER ledger_totals_follow AFTER INSERT ON ledger
    BEGIN
      INSERT OR IGNORE INTO ledger_totals (account_id) VALUES (NEW.account_id);
      UPDATE ledger_totals SET
        granted_micro = granted_micro + iif(NEW.kind = 'grant', NEW.amount_micro, 0),
        charged_micro = charged_micro + iif(NEW.kind = 'charge', NEW.amount_micro, 0),
        held_micro = held_micro
          + iif(NEW.kind = 'hold', NEW.amount_micro, 0)
          - iif(NEW.hold_id IS NULL, 0,
                (SELECT h.amount_micro FROM ledger h WHERE h.id = NEW.hold_id))
      WHERE account_id = NEW.account_id;
    END;

    INSERT INTO ledger (account_id, kind, amount_micro, memo)
    VALUES (1, 'grant', 5000000, 'welcome credit');

    CREATE TABLE history (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      key_id TEXT REFERENCES api_keys(id),
      request_id TEXT NOT NULL,
      operation TEXT NOT NULL CHECK (operation IN ('fix', 'refine')),
      source TEXT NOT NULL CHECK (source IN ('http', 'v1', 'app', 'cli')),
      -- Number of samples, so a listing need not read the JSON (NULL when unknown).
      samples INTEGER CHECK (samples IS NULL OR samples >= 0),
      input_json TEXT NOT NULL CHECK (json_valid(input_json)),
      output_json TEXT NOT NULL CHECK (json_valid(output_json)),
      cost_micro INTEGER NOT NULL CHECK (typeof(cost_micro) = 'integer' AND cost_micro >= 0),
      created_at TEXT NOT NULL DEFAULT (${NOW})
    );
    CREATE INDEX history_created_at ON history(created_at);
  `,
};
