import { Hono } from 'hono';
import { AppError } from '../../../src-shared/errors.ts';
import { findModelCard, modelCards } from '../../service/catalog.ts';
import type { ServiceContext } from '../../service/context.ts';
import { keyAuth, type CallerEnv } from '../caller.ts';

/** `GET /v1/models` and `GET /v1/models/{id}` (ids contain a slash, so the rest of the path is the id). */
export function v1ModelRoutes(ctx: ServiceContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  const auth = keyAuth(ctx, 'v1');
  app.get('/v1/models', auth, (c) =>
    c.json({ object: 'list' as const, data: modelCards(ctx.settings()) }),
  );
  app.get('/v1/models/:id{.+}', auth, (c) => {
    const id = decodeURIComponent(c.req.param('id'));
    const card = findModelCard(id, ctx.settings());
    if (!card) {
      throw new AppError('model_not_found', `The model '${id}' does not exist`, { param: 'model' });
    }
    return c.json(card);
  });
  return app;
}
