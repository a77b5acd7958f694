import { DEFAULT_SETTINGS, Settings } from '../../src-shared/schemas/settings.ts';
import type { Db } from './db.ts';

type Section = keyof Settings;

/** Settings are stored one JSON document per section; missing sections take their defaults. */
export function readSettings(db: Db): Settings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as {
    key: string;
    value: string;
  }[];
  const stored: Record<string, unknown> = {};
  for (const row of rows) stored[row.key] = JSON.parse(row.value);
  const merged = {
    rates: { ...DEFAULT_SETTINGS.rates, ...(stored.rates as object | undefined) },
    limits: { ...DEFAULT_SETTINGS.limits, ...(stored.limits as object | undefined) },
    server: { ...DEFAULT_SETTINGS.server, ...(stored.server as object | undefined) },
  };
  return Settings.parse(merged);
}

export function writeSettingsSection<S extends Section>(
  db: Db,
  section: S,
  value: Settings[S],
): void {
  const validated = Settings.shape[section].parse(value);
  db.prepare(
    `INSERT INTO settings (key, value) VALUES (?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  ).run(section, JSON.stringify(validated));
}
