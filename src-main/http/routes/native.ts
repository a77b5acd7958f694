import { Hono } from 'hono';
import { AuditRequest, FixRequest, RefineRequest } from '../../../src-shared/schemas/native.ts';
import type { Operation } from '../../../src-shared/schemas/config.ts';
import type { BilledPipeline } from '../../service/billing/billed-pipeline.ts';
import type { ServiceContext } from '../../service/context/service-context.ts';
import { microToCostUsd } from '../../service/billing/money.ts';
import type { OperationRequest } from '../../service/runs/contract.ts';
import { keyAuth, type CallerEnv } from '../caller.ts';
import { readBody } from '../json-body.ts';
import { jsonWithLeadingArray } from '../json-in-turns.ts';

const SCHEMAS = { audit: AuditRequest, fix: FixRequest, refine: RefineRequest } as const;
const DATA_KEY = { audit: 'audited_data', fix: 'fixed_data', refine: 'refined_data' } as const;

/** `POST /audit`, `/fix`, `/refine`: the native envelopes, billed to the key's account. */
export function nativeRoutes(ctx: ServiceContext, pipeline: BilledPipeline): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  const auth = keyAuth(ctx, 'native');
  for (const operation of ['audit', 'fix', 'refine'] as const satisfies readonly Operation[]) {
    app.post(`/${operation}`, auth, async (c) => {
      const body = await readBody(c, SCHEMAS[operation]);
      const request = {
        operation,
        samples: body.data,
        config: SCHEMAS[operation].shape.config.unwrap().parse(body.config ?? {}),
        conventions: body.conventions,
      } as OperationRequest;
      const requestId = c.get('requestId');
      // The body is serialised before the charge is settled: if that fails, nothing is charged.
      const answer = await pipeline.run(
        {
          caller: { ...c.get('caller'), source: 'http' },
          requestId,
          request,
          settings: c.get('settings'),
          samplesPointer: '/data',
        },
        { signal: c.req.raw.signal },
        (billed) =>
          jsonWithLeadingArray(DATA_KEY[operation], billed.result.data, {
            counts: billed.result.counts,
            cost_usd: microToCostUsd(billed.chargedMicro),
            input_tokens: billed.input_tokens,
            output_tokens: billed.output_tokens,
            request_id: requestId,
          }),
      );
      return c.body(answer, 200, { 'content-type': 'application/json' });
    });
  }
  return app;
}
