import { AUDIT_MODEL_ID, FIX_MODEL_ID } from './schemas/model-ids.ts';
import type { Operation } from './schemas/config.ts';

/** The chat model ids of `/v1` and what each runs. */

export const ENGINE_MODELS = [AUDIT_MODEL_ID, FIX_MODEL_ID] as const;
export type EngineModel = (typeof ENGINE_MODELS)[number];

export interface ChatModel {
  id: `svc/${string}-1`;
  alias: `svc/${string}`;
  operation: Operation;
  /** The engine models whose tokens this chat model spends. */
  uses: readonly EngineModel[];
}

export const CHAT_MODELS: readonly ChatModel[] = [
  { id: 'svc/audit-1', alias: 'svc/audit', operation: 'audit', uses: [AUDIT_MODEL_ID] },
  { id: 'svc/fix-1', alias: 'svc/fix', operation: 'fix', uses: [AUDIT_MODEL_ID, FIX_MODEL_ID] },
  {
    id: 'svc/refine-1',
    alias: 'svc/refine',
    operation: 'refine',
    uses: [AUDIT_MODEL_ID, FIX_MODEL_ID],
  },
];

/** Resolves a versioned id or an unversioned alias; `undefined` for anything else. */
export function findChatModel(id: string): ChatModel | undefined {
  return CHAT_MODELS.find((model) => model.id === id || model.alias === id);
}
