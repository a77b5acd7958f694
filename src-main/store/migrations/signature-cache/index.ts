import type { Migration } from '../../migrate.ts';
import { signatures } from './001-signatures.ts';

/**
 * Every schema change of the signature cache's file (a database of its own,
 * beside the app's), in order. Never edit a shipped migration: add one.
 */
export const SIGNATURE_CACHE_MIGRATIONS: readonly Migration[] = [signatures];
