import { z } from 'zod';
import { HTTP_ROUTES, type RouteDoc, type Security } from '../../src-shared/http-routes.ts';
import { OWNER_HTTP_PREFIX, ownerApi, OWNER_METHODS } from '../../src-shared/owner-api.ts';
import { OWNER_TRANSFER_ROUTES } from '../../src-shared/owner-transfer-routes.ts';
import { NativeError } from '../../src-shared/schemas/native.ts';

/**
 * Builds the OpenAPI 3.1 document from the route table and the zod schemas
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits natively).
 * Named schemas (`.meta({id})`) become `components.schemas`.
 */

type JsonObject = Record<string, unknown>;
const COMPONENTS = '#/components/schemas/';

class SchemaCollector {
  readonly components: Record<string, unknown> = {};

  /** Converts a schema, hoisting its named parts into components; returns the inline schema. */
  add(schema: z.ZodType, io: 'input' | 'output'): unknown {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
    const rewritten = JSON.parse(
      JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENTS}`),
    ) as JsonObject;
    const defs = (rewritten.$defs ?? {}) as Record<string, unknown>;
    for (const [id, def] of Object.entries(defs)) {
      // The first form seen wins; request (input) and response (output) forms of a
      // named schema differ only in defaults, which the description carries.
      if (!(id in this.components)) this.components[id] = def;
    }
    delete rewritten.$defs;
    delete rewritten.$schema;
    return rewritten;
  }
}

const SECURITY: Record<Security, JsonObject[]> = {
  none: [],
  api_key: [{ apiKey: [] }],
  owner_session: [{ ownerSession: [] }],
};

function operation(route: RouteDoc, schemas: SchemaCollector): JsonObject {
  const op: JsonObject = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.security],
  };
  if (route.pathParams) {
    op.parameters = Object.entries(route.pathParams).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    }));
  }
  if (route.queryParams) {
    op.parameters = [
      ...((op.parameters as JsonObject[] | undefined) ?? []),
      ...Object.entries(route.queryParams).map(([name, { description, required }]) => ({
        name,
        in: 'query',
        required,
        description,
        schema: { type: 'string' },
      })),
    ];
  }
  if (route.request) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: schemas.add(route.request, 'input') } },
    };
  }
  if (route.rawRequest) {
    op.requestBody = {
      required: true,
      description: route.rawRequest.description,
      content: { [route.rawRequest.contentType]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const content: JsonObject = {};
    if (response.schema) {
      content['application/json'] = { schema: schemas.add(response.schema, 'output') };
    }
    if (response.binary) {
      content[response.binary.contentType] = {
        schema: { type: 'string', format: 'binary', description: response.binary.description },
      };
    }
    if (response.stream) {
      content[response.stream.contentType] = {
        schema: { type: 'string', description: response.stream.description },
        itemSchema: schemas.add(response.stream.schema, 'output'),
      };
    }
    responses[status] = Object.keys(content).length
      ? { description: response.description, content }
      : { description: response.description };
  }
  op.responses = responses;
  return op;
}

function ownerRoutes(): RouteDoc[] {
  return OWNER_METHODS.map((method) => ({
    method: 'post',
    path: `${OWNER_HTTP_PREFIX}/${method}`,
    operationId: `owner_${method}`,
    summary: ownerApi[method].summary,
    tag: 'owner',
    security: 'owner_session',
    request: ownerApi[method].input,
    responses: {
      200: { description: 'Result.', schema: ownerApi[method].output },
      400: {
        description: 'Refused: the request cannot be done as asked (`invalid_request`).',
        schema: NativeError,
      },
      401: { description: 'No owner session.', schema: NativeError },
      403: {
        description: 'Foreign Origin or Host, or a path the app will not write.',
        schema: NativeError,
      },
      404: {
        description: 'No such dataset, row or run, or a dataset still importing or being deleted.',
        schema: NativeError,
      },
      422: { description: 'Invalid input.', schema: NativeError },
      503: { description: 'Cancelled, or the service is busy.', schema: NativeError },
    },
  }));
}

export function buildOpenApiDocument(version: string): JsonObject {
  const schemas = new SchemaCollector();
  const paths: Record<string, JsonObject> = {};
  for (const route of [...HTTP_ROUTES, ...ownerRoutes(), ...OWNER_TRANSFER_ROUTES]) {
    const item = (paths[route.path] ??= {});
    item[route.method] = operation(route, schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc: training-data audit and fix service',
      version: '1.0.0',
      description:
        'Native routes and an OpenAI-compatible /v1 for svc-audit-1 and svc-fix-1. ' +
        `Served by svc ${version}.`,
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'native', description: 'Native JSON routes' },
      { name: 'openai', description: 'OpenAI-compatible chat completions' },
      { name: 'owner', description: "The app owner's operations (session cookie)" },
      { name: 'meta', description: 'About the service' },
    ],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An `svc_` API key: `Authorization: Bearer svc_...`.',
        },
        ownerSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_session',
          description: 'Set by opening the one-time link that `svc serve` prints.',
        },
      },
    },
  };
}
