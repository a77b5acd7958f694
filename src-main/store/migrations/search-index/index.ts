import type { Migration } from '../../migrate.ts';
import { indexed } from './001-indexed.ts';
import { everyField } from './002-every-field.ts';
import { narrowText } from './003-narrow-text.ts';
import { parts } from './004-parts.ts';
import { foldedQuotes } from './005-folded-quotes.ts';

/**
 * Every schema change of the search index's file (a database of its own,
 * beside the app's), in order. Never edit a shipped migration: add one.
 */
export const SEARCH_INDEX_MIGRATIONS: readonly Migration[] = [
  indexed,
  everyField,
  narrowText,
  parts,
  foldedQuotes,
];
