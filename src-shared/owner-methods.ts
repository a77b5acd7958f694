/**
 * The owner methods' names and the IPC channel names, without their schemas:
 * the Electron preload needs only these, and importing the schemas would put
 * zod into the sandboxed preload bundle (200 kB on every window start).
 * `owner-api.ts` checks at compile time that this list and its contract
 * name the same methods.
 */
export const OWNER_METHOD_NAMES = [
  'serverStatus',
  'importPreview',
  'importDataset',
  'listDatasets',
  'deleteDataset',
  'setEvalSet',
  'datasetRows',
  'datasetRow',
  'importErrors',
  'decide',
  'keepBoth',
  'editRow',
  'exportColumns',
  'exportDataset',
  'estimateRun',
  'startRun',
  'cancelRun',
  'listRuns',
  'datasetOverview',
  'duplicateGroups',
  'listKeys',
  'createKey',
  'revokeKey',
  'credits',
  'addCredits',
  'ledger',
  'spendByDay',
  'history',
  'getSettings',
  'updateSettings',
  'getEngines',
  'updateEngine',
  'testEngine',
] as const;
export type OwnerMethodName = (typeof OWNER_METHOD_NAMES)[number];

export const ipcChannel = <M extends OwnerMethodName>(method: M): `svc:${M}` => `svc:${method}`;

/** The channel main pushes import and run events on. */
export const OWNER_EVENT_CHANNEL = 'svc:event';
