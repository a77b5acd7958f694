import type { Migration } from '../../migrate.ts';
import { built } from './001-built.ts';
import { textForm } from './002-text-form.ts';

/**
 * Every schema change of a search index part's file (a database of its own,
 * beside the app's), in order. Never edit a shipped migration: add one.
 */
export const SEARCH_PART_MIGRATIONS: readonly Migration[] = [built, textForm];
