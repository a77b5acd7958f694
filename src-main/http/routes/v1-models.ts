import { Hono, type MiddlewareHandler } from 'hono';
import { AppError } from '../../../src-shared/errors.ts';
import { findModelCard, modelCards } from '../../service/billing/catalog.ts';
import type { ServiceContext } from '../../service/context/service-context.ts';
import type { CallerEnv } from '../caller.ts';

/**
 * `GET /v1/models` and `GET /v1/models/{id}` (ids contain a slash, so the rest
 * of the path is the id). `auth` is the `/v1` family's one door, shared with
 * chat completions, so a key's 600 requests a minute cover both.
 */
export function v1ModelRoutes(
  ctx: ServiceContext,
  auth: MiddlewareHandler<CallerEnv>,
): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  app.get('/v1/models', auth, (c) =>
    c.json({ object: 'list' as const, data: modelCards(ctx.settings()) }),
  );
  app.get('/v1/models/:id{.+}', auth, (c) => {
    // Hono has decoded the path parameter already (and leaves malformed escapes as they are).
    const id = c.req.param('id');
    const card = findModelCard(id, ctx.settings());
    if (!card) {
      throw new AppError('model_not_found', `The model '${id}' does not exist`, { param: 'model' });
    }
    return c.json(card);
  });
  return app;
}
