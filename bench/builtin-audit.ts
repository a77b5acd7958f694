import type { AuditBlock } from '../src-shared/schemas/blocks.ts';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { runOperation } from '../src-main/service/runs/operation.ts';

/** Samples audited at a time (one engine request each). */
const BATCH = 500;

/** Each sample's audit by the builtin engine with one vote, in order. */
export async function auditAll(samples: readonly Sample[]): Promise<AuditBlock[]> {
  const blocks: AuditBlock[] = [];
  for (let i = 0; i < samples.length; i += BATCH) {
    const result = await runOperation(
      { operation: 'audit', samples: samples.slice(i, i + BATCH), config: { votes: 1 } },
      { backend: builtinBackend },
    );
    blocks.push(...result.data.map((d) => d.audit as AuditBlock));
  }
  return blocks;
}
