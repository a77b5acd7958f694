import { z } from 'zod';
import { OWNER_METHOD_NAMES, type OwnerMethodName } from './owner-methods.ts';
import type { ErrorPayload } from './errors.ts';
import {
  CreatedKey,
  Credits,
  HistoryItem,
  KeyRecord,
  LedgerEntry,
  SpendDay,
} from './owner/account.ts';
import {
  DatasetSummary,
  Decision,
  ExportColumns,
  ExportRequest,
  ExportResult,
  ImportError,
  ImportPreview,
  ImportSource,
  RowDetail,
  RowsPage,
  RowsQuery,
  ShapeId,
  EditRow,
  KeepBoth,
} from './owner/datasets.ts';
import { EngineTest, EngineTestRequest, EngineUpdate, EnginesView } from './owner/engines.ts';
import { RunEstimate, RunRequest, RunStatus } from './owner/runs.ts';
import { ModelCard } from './schemas/openai.ts';
import { FieldMapping, OasstPaths } from './schemas/mapping.ts';
import { DatasetOverview, DuplicateGroupsPage, DuplicateGroupsQuery } from './owner/overview.ts';
import { PricingDocument } from './schemas/pricing.ts';
import {
  ContaminationSetting,
  DedupSetting,
  EngineSetting,
  LimitsSetting,
  RatesSetting,
  ServerSetting,
} from './schemas/settings.ts';

/**
 * The owner API: every operation the app's UI may ask of main. This one map is
 * the whole contract. Electron exposes one preload method per entry (IPC
 * channel `svc:<name>`); a browser calls `POST /owner/<name>` with the owner's
 * session cookie. Inputs are validated in main whichever way they arrive.
 */

export const ServerStatus = z
  .object({
    running: z.boolean(),
    url: z.string().nullable().meta({ description: 'Base URL, e.g. http://127.0.0.1:7331.' }),
    host: z.string(),
    port: z.int().nullable(),
    error: z.string().nullable().meta({
      description: 'Why the server is not running although it should (its port is taken).',
    }),
    version: z.string(),
    data_dir: z.string(),
    models: z.array(ModelCard),
    pricing: PricingDocument,
  })
  .meta({ id: 'ServerStatus' });
export type ServerStatus = z.infer<typeof ServerStatus>;

const NoInput = z.strictObject({});
const DatasetRef = z.strictObject({ dataset_id: z.string() });
const Page = z.strictObject({
  limit: z.int().min(1).max(1000).default(50),
  before_id: z.int().optional(),
});
const Updated = z.object({ updated: z.int() });

/** The settings the app edits (the engines have their own methods: getEngines, updateEngine). */
export const EditableSettings = z.object({
  rates: RatesSetting,
  limits: LimitsSetting,
  server: ServerSetting,
  dedup: DedupSetting,
  engine: EngineSetting,
  contamination: ContaminationSetting,
});

/**
 * A change of settings: any sections, each with any of its fields (the rest
 * kept as they are): `{"limits": {"requests_per_minute_native": 2}}` had been
 * refused until all three limits were given.
 */
export const SettingsChange = z.strictObject({
  rates: RatesSetting.partial().optional(),
  limits: LimitsSetting.partial().optional(),
  server: ServerSetting.partial().optional(),
  dedup: DedupSetting.partial().optional(),
  engine: EngineSetting.partial().optional(),
  contamination: ContaminationSetting.partial().optional(),
});

export const ownerApi = {
  serverStatus: { input: NoInput, output: ServerStatus, summary: 'Address, models and pricing' },

  importPreview: {
    input: z.strictObject({
      source: ImportSource,
      shape: ShapeId.optional(),
      mapping: FieldMapping.optional(),
      paths: OasstPaths.optional().meta({
        description: 'OpenAssistant trees: a row per tree (best path, the default) or per path.',
      }),
    }),
    output: ImportPreview,
    summary: 'Detect the shape of a file and map its first rows',
  },
  importDataset: {
    input: z.strictObject({
      source: ImportSource,
      shape: ShapeId,
      mapping: FieldMapping.optional().meta({
        description: 'Read the rows through this mapping (the dataset’s shape is then `custom`).',
      }),
      paths: OasstPaths.optional().meta({
        description: 'OpenAssistant trees: a row per tree (best path, the default) or per path.',
      }),
      name: z.string().min(1).max(200),
    }),
    output: DatasetSummary,
    summary: 'Import a file as a dataset (progress arrives as import events)',
  },
  listDatasets: { input: NoInput, output: z.array(DatasetSummary), summary: 'Every dataset' },
  deleteDataset: { input: DatasetRef, output: Updated, summary: 'Delete a dataset and its rows' },
  setEvalSet: {
    input: z.strictObject({ dataset_id: z.string(), eval_set: z.boolean() }),
    output: DatasetSummary,
    summary:
      'Mark a dataset as an evaluation set (or not): the scans of the others look for its rows',
  },
  datasetRows: { input: RowsQuery, output: RowsPage, summary: 'A page of grid rows' },
  datasetRow: {
    input: z.strictObject({ dataset_id: z.string(), index: z.int().min(0) }),
    output: RowDetail,
    summary: 'One row in full: original, sample, audit, fix, reaudit',
  },
  importErrors: {
    input: DatasetRef,
    output: z.array(ImportError),
    summary: 'The rows an import reported and skipped',
  },
  editRow: {
    input: EditRow,
    output: RowDetail,
    summary: 'Store a person’s edit of a row as its candidate, re-audited (decision pending)',
  },
  decide: {
    input: Decision,
    output: Updated,
    summary: 'Accept or reject fixes, per row or in bulk',
  },
  keepBoth: {
    input: KeepBoth,
    output: Updated,
    summary: 'Keep two rows taken for duplicates: the next scans no longer pair them',
  },
  exportColumns: {
    input: DatasetRef,
    output: ExportColumns,
    summary: 'The columns a CSV or Parquet export adds to rows that lack them',
  },
  exportDataset: {
    input: ExportRequest,
    output: ExportResult,
    summary: 'Write the dataset in its original schema with accepted fixes applied',
  },

  estimateRun: { input: RunRequest, output: RunEstimate, summary: 'The most a run may cost' },
  startRun: { input: RunRequest, output: RunStatus, summary: 'Start audit, fix or refine on rows' },
  cancelRun: {
    input: z.strictObject({ run_id: z.string() }),
    output: RunStatus,
    summary: 'Cancel a run',
  },
  listRuns: { input: DatasetRef, output: z.array(RunStatus), summary: 'Runs of a dataset' },

  datasetOverview: {
    input: DatasetRef,
    output: DatasetOverview,
    summary:
      'A dataset at a glance: failures and warnings per check and code, statistics, findings',
  },
  duplicateGroups: {
    input: DuplicateGroupsQuery,
    output: DuplicateGroupsPage,
    summary: 'A page of the duplicate groups of the latest dataset scan',
  },
  listKeys: { input: NoInput, output: z.array(KeyRecord), summary: 'API keys' },
  createKey: {
    input: z.strictObject({ name: z.string().max(100).default('') }),
    output: CreatedKey,
    summary: 'Create a key (shown once)',
  },
  revokeKey: {
    input: z.strictObject({ id: z.string() }),
    output: KeyRecord,
    summary: 'Revoke a key',
  },
  credits: { input: NoInput, output: Credits, summary: 'Balance, held and available' },
  addCredits: {
    input: z.strictObject({ usd: z.number().positive().max(1_000_000).multipleOf(0.01) }),
    output: Credits,
    summary: 'Add local credit',
  },
  ledger: { input: Page, output: z.array(LedgerEntry), summary: 'Ledger entries, newest first' },
  spendByDay: {
    input: z.strictObject({ days: z.int().min(1).max(366).default(30) }),
    output: z.array(SpendDay),
    summary: 'Charges per day',
  },
  history: {
    input: Page,
    output: z.array(HistoryItem),
    summary: 'Fix and refine history (30 days)',
  },

  getSettings: { input: NoInput, output: EditableSettings, summary: 'Rates, limits, server' },
  updateSettings: {
    input: SettingsChange,
    output: EditableSettings,
    summary: 'Change rates, limits or the server',
  },
  getEngines: {
    input: NoInput,
    output: EnginesView,
    summary: 'The engine of each model role: stored and in force',
  },
  updateEngine: {
    input: EngineUpdate,
    output: EnginesView,
    summary: 'Run a model role on the builtin engine or on an OpenAI-compatible server',
  },
  testEngine: {
    input: EngineTestRequest,
    output: EngineTest,
    summary: "Ask a role's upstream server for its models",
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType; summary: string }>;

export type OwnerApi = typeof ownerApi;
export type OwnerMethod = keyof OwnerApi;
export type OwnerInput<M extends OwnerMethod> = z.input<OwnerApi[M]['input']>;
export type OwnerOutput<M extends OwnerMethod> = z.output<OwnerApi[M]['output']>;

export const OWNER_METHODS: readonly OwnerMethod[] = OWNER_METHOD_NAMES;

// The preload's list of names (owner-methods.ts) and this contract must name the same methods.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type OwnerMethodNamesMatch = Assert<Same<OwnerMethod, OwnerMethodName>>;

/** What the renderer holds: one async function per owner method. */
export type OwnerClient = {
  [M in OwnerMethod]: (input: OwnerInput<M>) => Promise<OwnerOutput<M>>;
};

export { ipcChannel, OWNER_EVENT_CHANNEL } from './owner-methods.ts';
export const OWNER_HTTP_PREFIX = '/owner';

/**
 * What crosses IPC: errors are values, never thrown across the bridge. A
 * value main has as JSON already (a large row's detail, encoded off its
 * thread) comes as its UTF-8 bytes in `json`, which the page parses.
 */
export type IpcResult<T> =
  { ok: true; value: T } | { ok: true; json: Uint8Array } | { ok: false; error: ErrorPayload };

/** What the Electron preload exposes as `window.svc`: one method per owner method. */
export type OwnerBridge = {
  [M in OwnerMethod]: (input: OwnerInput<M>) => Promise<IpcResult<OwnerOutput<M>>>;
};

/** What main pushes to the UI: import, run, scan and search index progress. */
export const OwnerEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('import'),
    dataset_id: z.string().meta({
      description: 'The dataset being imported: its rows can be read while the rest arrives.',
    }),
    name: z.string().meta({ description: 'The dataset’s name.' }),
    asked_name: z.string().meta({
      description:
        'The name the import was asked for: the dataset’s, unless another dataset had it (then `NAME (2)`).',
    }),
    rows: z.int(),
    errors: z.int(),
    bytes_read: z.int(),
    bytes_total: z.int(),
    done: z.boolean(),
  }),
  z.object({ type: z.literal('run'), run: RunStatus }),
  z.object({
    type: z.literal('scan'),
    dataset_id: z.string(),
    state: z.enum(['running', 'done', 'failed']),
    error: z.string().nullable(),
  }),
  z.object({
    type: z.literal('index'),
    dataset_id: z.string(),
    indexed: z.int().meta({ description: 'Rows in the search index so far.' }),
    total: z.int().meta({ description: 'Rows of the dataset so far (it may still import).' }),
    done: z.boolean().meta({ description: 'The index is complete: searches read it alone.' }),
  }),
]);
export type OwnerEvent = z.infer<typeof OwnerEvent>;
export const OWNER_EVENTS_PATH = '/owner-events';
export const OWNER_UPLOAD_PATH = '/owner-upload';
export const OWNER_DOWNLOAD_PATH = '/owner-download';

/**
 * What the Electron preload exposes as `window.svc`: one method per owner
 * method, plus the three things only the desktop shell can do.
 */
export type AppBridge = OwnerBridge & {
  /** Subscribes to pushed events; returns the unsubscribe function. */
  onEvent: (listener: (event: OwnerEvent) => void) => () => void;
  /** The path of a dropped or picked file (Electron's webUtils.getPathForFile). */
  pathForFile: (file: File) => string;
  /** A save dialog; null when cancelled. */
  chooseSavePath: (defaultName: string) => Promise<string | null>;
};
