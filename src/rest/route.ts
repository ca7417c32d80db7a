import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { z } from 'zod';
import type { Session } from '../auth/session.js';
import type * as Operations from '../generated/operations.js';
import type { StagedFile } from '../services/datapipe/staged-file.js';

/**
 * The seam between REST and GraphQL. A route is one declaration: method and path, zod schemas for what HTTP
 * delivers, the named operation it runs (src/rest/operations/*.graphql) and a reshape into the API document's
 * envelope. Result and variable types are generated from the operation documents by graphql-codegen, so a
 * route that maps a field the operation does not select fails to compile. Edition and permissions are not
 * written here: they come from the schema's directives on the operation's root fields.
 */

type Documents = typeof Operations;
/** Every operation named in src/rest/operations, e.g. 'GetClient'. */
export type OperationName = { [K in keyof Documents]: K extends `${infer N}Document` ? N : never }[keyof Documents];
export type Result<N extends OperationName> = ResultOf<Documents[`${N}Document`]>;
export type Variables<N extends OperationName> = VariablesOf<Documents[`${N}Document`]>;

/** What a route's functions may read of a request: already parsed, never the raw express objects. */
export interface RestRequest {
  headers: Record<string, string | string[] | undefined>;
  session: Session | null;
  /** True when the browser reached the server over https (cookies it is handed are then Secure). */
  secure?: boolean;
  /** The body of an upload route, spooled to disk. */
  upload?: StagedFile;
}

/** A response other than the default 200 JSON. */
export interface RestResponse {
  status?: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  /** Raw bytes instead of JSON (collector checksums). */
  raw?: { data: Buffer; contentType: string };
  /** A list sends the header once per value (Set-Cookie). */
  headers?: Record<string, string | string[]>;
}

/** How a route's body is read before authentication (signatures cover the raw bytes). */
export type BodyKind = 'none' | 'json' | 'multipart' | 'form' | 'upload' | 'json-or-multipart';

/** A multipart/form-data body: each field's values in order; files as their bytes. */
export type FormFields = Record<string, (string | { filename: string; contentType: string; content: Buffer })[]>;

/** The parsed parts of a request, as the route's schemas produced them. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
/** What a schema gives, or nothing (`unknown`) where the route declares none. */
type Given<S> = S extends z.ZodType ? z.output<S> : unknown;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route declares besides method, path, context and operation. */
export type RouteSpec<PS, QS, BS, N extends OperationName> = RouteOptions<PS, QS, BS, N> & VariablesSpec<PS, QS, BS, N>;

type MapVariables<PS, QS, BS, N extends OperationName> = (input: RouteInput<Out<PS>, Out<QS>, Out<BS>>, req: RestRequest) => Variables<N>;

/**
 * `variables` may be left out when the route has no path or query schema (the operation then runs without
 * variables), or when those schemas already give the operation's variables under GraphQL's names, e.g.
 * `z.object({ job_id: intText(1) }).transform((p) => ({ id: p.job_id }))`: the operation then takes the parsed
 * path and query parameters as they are. Otherwise the route must map them.
 */
type VariablesSpec<PS, QS, BS, N extends OperationName> = [PS, QS] extends [undefined, undefined]
  ? { variables?: MapVariables<PS, QS, BS, N> }
  : Given<PS> & Given<QS> extends Variables<N>
    ? { variables?: MapVariables<PS, QS, BS, N> }
    : { variables: MapVariables<PS, QS, BS, N> };

interface RouteOptions<PS, QS, BS, N extends OperationName> {
  /** How the body is read (default: none). */
  body?: BodyKind;
  /** Schemas of the path parameters, the query string and the body; unlisted query parameters are ignored. */
  input?: { params?: PS; query?: QS; body?: BS };
  /**
   * When several routes share a method and path, the first whose `when` holds serves the request (entity lists
   * choose the list or the graph operation by `type`). It sees the query as this route's schema parsed it.
   */
  when?: (input: RouteInput<Out<PS>, Out<QS>, Out<BS>>) => boolean;
  /** From the operation's data to the response; the default wraps the first field as `{data: …}`. */
  reshape?: (data: Result<N>, req: RestRequest) => RestResponse;
  /**
   * Another answer for a failed operation, or undefined for the usual error document: a browser sent to a callback
   * by an IdP gets a page to land on rather than JSON.
   */
  refused?: (err: unknown, req: RestRequest) => RestResponse | undefined;
  /** Deprecated endpoints announce their successor (Deprecation and Link headers). */
  deprecatedBy?: string;
  /** What the route answers on success, for the OpenAPI document (status 200 unless given; no schema: no body). */
  response?: RouteResponse;
}

/** A route's success answer: its status and the schema of its JSON body. */
export interface RouteResponse {
  status?: number;
  schema?: z.ZodType;
}

/** A route with its types erased, as the router holds it. */
export interface RestRoute {
  method: Method;
  /** Express path, e.g. /api/v2/permissions/:permission_id */
  path: string;
  /** Area name used as the error `context`. */
  context: string;
  operation: OperationName;
  body?: BodyKind;
  input?: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType };
  when?: (input: RouteInput<unknown, unknown, unknown>) => boolean;
  variables?: (input: RouteInput<unknown, unknown, unknown>, req: RestRequest) => Record<string, unknown>;
  reshape?: (data: unknown, req: RestRequest) => RestResponse;
  refused?: (err: unknown, req: RestRequest) => RestResponse | undefined;
  deprecatedBy?: string;
  response?: RouteResponse;
}

/**
 * Declares a route: `route('GET', '/api/v2/jobs/:job_id', 'jobs', 'GetJob', {…})`. The types of `variables`
 * and `reshape` follow from the operation and the input schemas.
 */
export function route<
  N extends OperationName,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
>(method: Method, path: string, context: string, operation: N, spec: RouteSpec<PS, QS, BS, N> = {} as RouteSpec<PS, QS, BS, N>): RestRoute {
  const declared = spec as unknown as Partial<RestRoute>;
  const { params, query } = declared.input ?? {};
  const variables = declared.variables ?? (params || query ? parameters : undefined);
  return { method, path, context, operation, ...declared, ...(variables ? { variables } : {}) };
}

/** The default variables: the parsed path and query parameters, already under GraphQL's names. */
const parameters = ({ params, query }: RouteInput<unknown, unknown, unknown>) => ({ ...(params as object), ...(query as object) });

/** The usual 200 answer: `{data: …}`. */
export const data = (body: unknown): RestResponse => ({ body: { data: body } });
/** 204 and 202 without a body. */
export const noContent = (): RestResponse => ({ status: 204 });
export const accepted = (): RestResponse => ({ status: 202 });
