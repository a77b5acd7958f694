import type { Db } from '../../store/db.ts';
import { readSettings } from '../../store/settings.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';

/** What every service operation needs: the database and where it lives. */
export interface ServiceContext {
  db: Db;
  dataDir: string;
  version: string;
  settings(): Settings;
}

export function createServiceContext(db: Db, dataDir: string, version: string): ServiceContext {
  return { db, dataDir, version, settings: () => readSettings(db) };
}
