import { Hono } from 'hono';
import { pricingDocument } from '../../service/billing/catalog.ts';
import type { ServiceContext } from '../../service/context/service-context.ts';
import { buildOpenApiDocument } from '../openapi.ts';

/** The open routes: pricing and the OpenAPI document. */
export function metaRoutes(ctx: ServiceContext): Hono {
  const app = new Hono();
  const openapi = buildOpenApiDocument(ctx.version);
  app.get('/pricing', (c) => c.json(pricingDocument(ctx.settings())));
  app.get('/openapi.json', (c) => c.json(openapi));
  return app;
}
