import type { Migration } from '../migrate.ts';

export const initial: Migration = {
  version: 1,
  name: 'accounts and settings',
  up: `
    CREATE TABLE accounts (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    -- The local owner's account; GUI and CLI runs are billed to it.
    INSERT INTO accounts (id, name) VALUES (1, 'owner');

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL CHECK (json_valid(value)),
      updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
  `,
};
