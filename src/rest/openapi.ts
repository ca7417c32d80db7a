import { stringify } from 'yaml';
import { z } from 'zod';
import type { RestRoute } from './route.js';

/**
 * An OpenAPI 3.1 document of the REST surface, generated from the route table: paths and methods as declared,
 * parameters and bodies from each route's zod schemas (their input side: what a caller sends), success answers from
 * the response schemas routes declare (src/rest/responses: their output side), the operation's
 * name as operationId and the route's area as its tag. Built once per process; the route table is fixed.
 */

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema: its input side (what a caller sends) or its output side (what a route answers); a
 * part zod cannot describe (a refinement, a preprocess) is left open.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  try {
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete out.$schema;
    return out;
  } catch {
    return {};
  }
}

/** The top-level fields of an object schema (path and query parameters). */
function fields(schema: z.ZodType | undefined): { name: string; schema: JsonSchema; required: boolean }[] {
  if (!schema) return [];
  const s = jsonSchema(schema);
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => ({ name, schema: p, required: required.has(name) }));
}

const openApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function requestBody(r: RestRoute): JsonSchema | undefined {
  if (!r.body || r.body === 'none') return undefined;
  if (r.body === 'upload') {
    return {
      required: true,
      content: {
        'application/json': { schema: { description: 'collected data (SharpHound, AzureHound or OpenGraph JSON)' } },
        'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } },
      },
    };
  }
  const schema = r.input?.body ? jsonSchema(r.input.body) : {};
  if (r.body === 'json-or-multipart') return { content: { 'application/json': { schema }, 'multipart/form-data': { schema } } };
  const type = { json: 'application/json', multipart: 'multipart/form-data', form: 'application/x-www-form-urlencoded' }[r.body];
  return { content: { [type]: { schema } } };
}

/** The success answer: the route's declared status and body schema, or a plain 200 where none is declared yet. */
function success(r: RestRoute): Record<string, JsonSchema> {
  const res = r.response;
  if (!res) return { '200': { description: 'OK (some operations answer 201, 202 or 204)' } };
  const status = res.status ?? 200;
  const description = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' }[status] ?? 'OK';
  if (!res.schema) return { [status]: { description } };
  return { [status]: { description, content: { 'application/json': { schema: jsonSchema(res.schema, 'output') } } } };
}

const ERROR = { $ref: '#/components/schemas/ErrorWrapper' };
const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

export function openApiDocument(routes: readonly RestRoute[], rootUrl: string, version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const ids = new Map<string, number>();
  for (const r of routes) {
    const method = r.method.toLowerCase();
    const p = openApiPath(r.path);
    const item = (paths[p] ??= {});
    // Routes sharing a method and path (chosen by `when`) are one operation to a caller.
    if (item[method]) continue;
    const n = (ids.get(r.operation) ?? 0) + 1;
    ids.set(r.operation, n);
    const parameters = [
      ...fields(r.input?.params).map((f) => ({ name: f.name, in: 'path', required: true, schema: f.schema })),
      ...fields(r.input?.query).map((f) => ({ name: f.name, in: 'query', required: f.required, schema: f.schema })),
    ];
    const body = requestBody(r);
    item[method] = {
      operationId: n === 1 ? r.operation : `${r.operation}${n}`,
      tags: [r.context],
      ...(r.deprecatedBy ? { deprecated: true, description: `Deprecated: use ${r.deprecatedBy}.` } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: {
        ...success(r),
        '400': error('The request is malformed; the message names the parameter.'),
        '401': error('No valid credentials.'),
        '403': error('The caller lacks a permission the operation requires.'),
        '404': error('Not found, or not served in this edition.'),
        '429': error('Too many requests.'),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Graph Analysis Service (BloodHound API v2)', version },
    servers: [{ url: rootUrl }],
    security: [{ JWTBearerToken: [] }, { SignedRequest: [] }],
    paths,
    components: {
      securitySchemes: {
        JWTBearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        SignedRequest: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'bhesignature <token id>, with RequestDate and Signature headers (HMAC-SHA-256 chain over method, path, date and body)',
        },
      },
      schemas: {
        ErrorWrapper: {
          type: 'object',
          properties: {
            http_status: { type: 'integer' },
            timestamp: { type: 'string', format: 'date-time' },
            request_id: { type: 'string', format: 'uuid' },
            errors: {
              type: 'array',
              items: { type: 'object', properties: { context: { type: 'string' }, message: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}

export const openApiYaml = (doc: JsonSchema): string => stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
