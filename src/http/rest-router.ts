import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { notFound, unauthorized } from '../errors.js';
import type { ContextFactory } from '../graphql/context-factory.js';
import { MSG } from '../messages.js';
import type { RestRequest, RestResponse, RestRoute } from '../rest/route.js';
import type { OperationRunner } from '../rest/run.js';

export interface RestMountDeps {
  runner: OperationRunner;
  contextFactory: ContextFactory;
  edition: 'enterprise' | 'community';
  baseUrl: string;
  limiter: (routeKey: string) => RequestHandler;
  bodyReader: (route: RestRoute) => RequestHandler | RequestHandler[];
  authenticate: RequestHandler;
}

/**
 * Mounts the route table. Per route, in order: rate limit → edition → body → authenticate → (caller needed?)
 * → variables → the GraphQL operation → reshape. Handlers hold no rules of their own.
 */
export function mountRestRoutes(app: Express, routes: RestRoute[], deps: RestMountDeps): void {
  const groups = new Map<string, RestRoute[]>();
  for (const route of routes) {
    if (!deps.runner.has(route.operation)) throw new Error(`route ${route.method} ${route.path}: unknown operation ${route.operation}`);
    const key = `${route.method} ${route.path}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  for (const [key, group] of groups) {
    const first = group[0]!;
    if (group.length > 1 && group.some((r) => !r.when)) throw new Error(`routes ${key} share a path; each needs a "when"`);
    const needsCaller = group.some((r) => !deps.runner.isPublic(r.operation));
    const editionGate = (_req: Request, _res: Response, next: NextFunction) => {
      if (first.edition === 'enterprise' && deps.edition !== 'enterprise') throw notFound(first.context, MSG.notEnterprise);
      next();
    };
    const handler = async (req: Request, res: Response) => {
      // Answer 401 before looking at parameters, as a caller without credentials learns nothing from a 400.
      if (needsCaller && !req.session) throw unauthorized(first.context, MSG.notAuthenticated);
      const rreq: RestRequest = {
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body,
        headers: req.headers,
        session: req.session ?? null,
        baseUrl: deps.baseUrl,
        upload: req.upload,
      };
      const route = group.find((r) => !r.when || r.when(rreq))!;
      const variables = route.variables ? await route.variables(rreq) : {};
      const data = await deps.runner.run<Record<string, unknown>>(route.operation, variables, deps.contextFactory(req));
      const out: RestResponse = route.reshape ? route.reshape(data, rreq) : { body: { data: Object.values(data)[0] } };
      if (route.deprecatedBy) {
        res.setHeader('Deprecation', 'true');
        res.setHeader('Link', `<${route.deprecatedBy}>; rel="successor-version"`);
      }
      send(res, out);
    };
    const method = first.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    app[method](first.path, deps.limiter(key), editionGate, deps.bodyReader(first), deps.authenticate, handler);
  }
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
    res.status(status).json(out.body);
  }
}
