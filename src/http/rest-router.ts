import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { notFound } from '../errors.js';
import { whenReady } from '../maybe-promise.js';
import { MSG } from '../messages.js';
import { parse } from '../rest/params.js';
import { routeGuard } from './route-guard.js';
import type { RestRequest, RestResponse, RestRoute, RouteInput } from '../rest/route.js';
import type { Envelope, OperationRunner } from '../rest/run.js';

export interface RestMountDeps {
  runner: OperationRunner;
  /** The /graphql engine for one request (restEngine), so both transports share plugins and context. */
  envelope: (req: Request, res: Response) => ReturnType<Envelope>;
  edition: 'enterprise' | 'community';
  limiter: (routeKey: string) => RequestHandler;
  /** How a route's body is received (bytes, bounded by who is calling) and then interpreted. */
  bodyReader: (route: RestRoute) => { receive: RequestHandler[]; parse: RequestHandler };
  /** Who is calling, from the headers (before any body byte is read). */
  authenticate: RequestHandler;
}

/**
 * Mounts the route table. Per route, in order: rate limit → edition → authenticate (headers) → guard → receive the
 * body (a signed request's signature is checked on it) → guard (signed requests) → interpret the body → input
 * schemas → the GraphQL operation → reshape. So 401, 403 and a collector-only 404 come before any 400 or 415, and
 * a body is read only for a caller who may call the route (or who signs it). Edition and guards come from the
 * schema's directives on the operation; handlers hold no rules of their own.
 */
export function mountRestRoutes(app: Express, routes: RestRoute[], deps: RestMountDeps): void {
  // One router per area (the path's first segment after /api/v2/), reached by a map look-up: express tries a
  // router's routes one by one, and with all 189 in one list a look-up of a user tried 175 patterns first.
  const areas = new Map<string, Router>();
  // Lower-cased, trailing slashes off: express matches paths without regard to either.
  const areaOf = (path: string) => {
    const p = path.toLowerCase();
    return p.startsWith(API_PREFIX) ? p.slice(API_PREFIX.length).split('/', 1)[0]! : p.replace(/\/+$/, '');
  };
  for (const [key, group] of groupBySpecificity(routes)) {
    const first = group[0]!;
    for (const r of group) if (!deps.runner.has(r.operation)) throw new Error(`route ${key}: unknown operation ${r.operation}`);
    if (group.length > 1 && group.some((r) => !r.when)) throw new Error(`routes ${key} share a path; each needs a "when"`);
    const enterprise = group.some((r) => deps.runner.isEnterprise(r.operation));
    const guard = routeGuard(
      first.context,
      group.flatMap((r) => deps.runner.guardsOf(r.operation)),
    );
    const editionGate = (_req: Request, _res: Response, next: NextFunction) => {
      if (enterprise && deps.edition !== 'enterprise') throw notFound(first.context, MSG.notEnterprise);
      next();
    };
    const handler = (req: Request, res: Response): void | Promise<void> => {
      const rreq: RestRequest = { headers: req.headers, session: req.session ?? null, secure: req.secure, upload: req.upload };
      let chosen: { route: RestRoute; input: RouteInput<unknown, unknown, unknown> } | undefined;
      for (const route of group) {
        const input = inputOf(route, req);
        if (!route.when || route.when(input)) {
          chosen = { route, input };
          break;
        }
      }
      if (!chosen) throw notFound(first.context, MSG.routeNotFound);
      const { route, input } = chosen;
      const variables = route.variables ? route.variables(input, rreq) : {};
      const answer = (data: unknown) => {
        const out: RestResponse = route.reshape ? route.reshape(data, rreq) : { body: { data: Object.values(data as object)[0] } };
        if (route.deprecatedBy) {
          res.setHeader('Deprecation', 'true');
          res.setHeader('Link', `<${route.deprecatedBy}>; rel="successor-version"`);
        }
        send(res, out);
      };
      const run = () => deps.runner.run(route.operation, variables, () => deps.envelope(req, res), route.context);
      // A plain value when the operation answered from memory: no promise for the router to wait on.
      if (!route.refused) return whenReady(run(), answer);
      const refused = (err: unknown) => {
        const out = route.refused!(err, rreq);
        if (!out) throw err;
        send(res, out);
      };
      try {
        const done = whenReady(run(), answer);
        return done instanceof Promise ? done.catch(refused) : done;
      } catch (err) {
        return refused(err);
      }
    };
    const method = first.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const area = areaOf(first.path);
    let router = areas.get(area);
    if (!router) areas.set(area, (router = express.Router()));
    const body = deps.bodyReader(first);
    router[method](first.path, deps.limiter(key), editionGate, deps.authenticate, guard, ...body.receive, guard, body.parse, handler);
  }
  app.use((req, res, next) => {
    const router = areas.get(areaOf(req.path));
    if (router) router(req, res, next);
    else next();
  });
}

const API_PREFIX = '/api/v2/';

/** The request's path parameters, query and body as the route's schemas parse them (400 naming the parameter). */
function inputOf(route: RestRoute, req: Request): RouteInput<unknown, unknown, unknown> {
  const { params, query, body } = route.input ?? {};
  return {
    params: params ? parse(route.context, 'path', params, req.params) : {},
    query: query ? parse(route.context, 'query', query, req.query) : {},
    body: body ? parse(route.context, 'body', body, req.body) : undefined,
  };
}

/**
 * Routes grouped by method and path, the most specific first: at the first segment where two paths differ,
 * a literal segment wins over a parameter, so `/jobs/finished` is never taken for `/jobs/:job_id`, whatever
 * order the areas declare them in.
 */
export function groupBySpecificity(routes: RestRoute[]): [string, RestRoute[]][] {
  const groups = new Map<string, RestRoute[]>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  return [...groups].sort(([, [a]], [, [b]]) => comparePaths(a!.path, b!.path));
}

/**
 * A total order on paths, segment by segment: a literal segment before a parameter, literals alphabetically,
 * then the shorter path. Only the first rule matters to express; the others make the order a total one.
 */
export function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith(':');
    const pb = sb[i]!.startsWith(':');
    if (pa !== pb) return pa ? 1 : -1;
    if (!pa && sa[i] !== sb[i]) return sa[i]! < sb[i]! ? -1 : 1;
  }
  return sa.length - sb.length;
}

function send(res: Response, out: RestResponse): void {
  if (res.headersSent) return; // cut off by the deadline (504 already sent)
  for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
  const status = out.status ?? 200;
  if (out.raw) {
    res.status(status).type(out.raw.contentType).send(out.raw.data);
  } else if (out.body === undefined) {
    res.status(status).end();
  } else {
    // Written directly rather than through res.json: express's send parses and re-formats the Content-Type it has
    // just set and runs a freshness check for an ETag this app never makes (ETags are off); ~3 % of a look-up.
    const json = JSON.stringify(out.body);
    res.statusCode = status;
    if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(res.req.method === 'HEAD' ? undefined : json);
  }
}
