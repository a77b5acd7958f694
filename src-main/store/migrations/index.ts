import type { Migration } from '../migrate.ts';
import { initial } from './001-initial.ts';
import { keysLedgerHistory } from './002-keys-ledger-history.ts';
import { datasets } from './003-datasets.ts';
import { mappings } from './004-mappings.ts';
import { treePaths } from './005-tree-paths.ts';
import { datasetChecks } from './006-dataset-checks.ts';
import { ownerUsage } from './007-owner-usage.ts';
import { leanRows } from './008-lean-rows.ts';
import { gridFilterIndexes } from './009-grid-filter-indexes.ts';
import { datasetTallies } from './010-dataset-tallies.ts';
import { contamination } from './011-contamination.ts';
import { keptPairs } from './012-kept-pairs.ts';
import { rowChecks } from './013-row-checks.ts';
import { notUtf8Line } from './014-not-utf8-line.ts';

/** Every schema change, in order. Never edit a shipped migration: add one. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  keysLedgerHistory,
  datasets,
  mappings,
  treePaths,
  datasetChecks,
  ownerUsage,
  leanRows,
  gridFilterIndexes,
  datasetTallies,
  contamination,
  keptPairs,
  rowChecks,
  notUtf8Line,
];
