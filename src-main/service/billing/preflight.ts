import { AppError } from '../../../src-shared/errors.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OperationRequest } from '../runs/contract.ts';
import { checkContext, estimate, requestTokens } from './estimate.ts';
import { usdToMicro } from './money.ts';

/**
 * Everything that can be refused before a hold or any work. `settings` are
 * the request's (read once, when it came in: see http/caller.ts); by default
 * the ones in force now. A request of much text is counted on an engine
 * worker (`requestTokens`).
 */
export async function preflight(
  ctx: ServiceContext,
  request: OperationRequest,
  pointerPrefix = '/data',
  settings: Settings = ctx.settings(),
): Promise<void> {
  const tokens = await requestTokens(request.samples);
  checkContext(tokens, pointerPrefix);
  const cap = usdToMicro(settings.limits.cost_cap_usd_per_request);
  const { maxChargeMicro } = estimate(request, tokens, settings);
  if (maxChargeMicro > cap) {
    throw new AppError(
      'cost_limit_exceeded',
      `the estimated cost of this request, up to $${(maxChargeMicro / 1e6).toFixed(2)}, is above ` +
        `the per-request cap of $${(cap / 1e6).toFixed(2)}: send fewer or smaller samples, or lower votes/max_attempts`,
    );
  }
}
