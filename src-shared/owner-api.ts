import { z } from 'zod';
import { ModelCard } from './schemas/openai.ts';
import { PricingDocument } from './schemas/pricing.ts';
import type { ErrorPayload } from './errors.ts';

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
    version: z.string(),
    data_dir: z.string(),
    models: z.array(ModelCard),
    pricing: PricingDocument,
  })
  .meta({ id: 'ServerStatus' });
export type ServerStatus = z.infer<typeof ServerStatus>;

const NoInput = z.strictObject({});

export const ownerApi = {
  serverStatus: { input: NoInput, output: ServerStatus, summary: 'Address, models and pricing' },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType; summary: string }>;

export type OwnerApi = typeof ownerApi;
export type OwnerMethod = keyof OwnerApi;
export type OwnerInput<M extends OwnerMethod> = z.input<OwnerApi[M]['input']>;
export type OwnerOutput<M extends OwnerMethod> = z.output<OwnerApi[M]['output']>;

export const OWNER_METHODS = Object.keys(ownerApi) as OwnerMethod[];

/** What the renderer holds: one async function per owner method. */
export type OwnerClient = {
  [M in OwnerMethod]: (input: OwnerInput<M>) => Promise<OwnerOutput<M>>;
};

export const ipcChannel = (method: OwnerMethod): `svc:${OwnerMethod}` => `svc:${method}`;
export const OWNER_HTTP_PREFIX = '/owner';

/** What crosses IPC: errors are values, never thrown across the bridge. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/** What the Electron preload exposes as `window.svc`: one method per owner method. */
export type OwnerBridge = {
  [M in OwnerMethod]: (input: OwnerInput<M>) => Promise<IpcResult<OwnerOutput<M>>>;
};
