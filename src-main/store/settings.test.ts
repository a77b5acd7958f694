import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src-shared/schemas/settings.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { readSettings, writeSettingsSection } from './settings.ts';

const fresh = () => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS);
  return db;
};

describe('settings', () => {
  it('reads defaults from an empty database', () => {
    expect(readSettings(fresh())).toEqual(DEFAULT_SETTINGS);
  });
  it('stores a section and reads it back', () => {
    const db = fresh();
    const rates = { ...DEFAULT_SETTINGS.rates, 'svc-fix-1': { input: 2, output: 8 } };
    writeSettingsSection(db, 'rates', rates);
    expect(readSettings(db).rates).toEqual(rates);
    expect(readSettings(db).limits).toEqual(DEFAULT_SETTINGS.limits);
  });
  it('refuses an invalid value and keeps the old one', () => {
    const db = fresh();
    expect(() => writeSettingsSection(db, 'server', { enabled: true, port: 70000 })).toThrow();
    expect(readSettings(db).server).toEqual(DEFAULT_SETTINGS.server);
  });
});
