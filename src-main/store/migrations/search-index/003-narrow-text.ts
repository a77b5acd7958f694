import type { Migration } from '../../migrate.ts';

/**
 * Each dataset's index gained a narrow text table (`text_<id>`: each row's
 * search text, stored first, so a search answers from it while the trigram
 * table is still being built), and the trigram table became `detail = none`
 * (no positions: a third cheaper to build; a match is confirmed against the
 * text table). `texts`: the last row whose text is stored (-1: none). Every
 * index is built again from its first row.
 */
export const narrowText: Migration = {
  version: 3,
  name: 'a narrow text table beside each trigram index',
  up: `ALTER TABLE indexed ADD COLUMN texts INTEGER NOT NULL DEFAULT -1;
    UPDATE indexed SET through = -1, texts = -1, complete = 0`,
};
