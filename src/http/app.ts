import path from 'node:path';
import express, { type Express } from 'express';
import compression from 'compression';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import { createContextFactory } from '../graphql/context-factory.js';
import type { Logger } from '../logger.js';
import { accessLog } from './access-log.js';
import type { RestRoute } from '../rest/route.js';
import { ROUTES } from '../rest/routes/index.js';
import { openApiDocument, openApiYaml } from '../rest/openapi.js';
import type { OperationRunner } from '../rest/run.js';
import type { Services } from '../services/index.js';
import { jwtStrategy } from './auth/jwt.js';
import { signatureStrategy } from './auth/signature.js';
import { authenticate } from './authenticate.js';
import { parseRouteBody, readUpload, receiveRouteBody } from './body.js';
import { AddressBytes } from './client-limits.js';
import type { ServerLimits } from './http-server.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { urlGuard } from './input-guard.js';
import { uploadGate } from './upload-gate.js';
import { createGraphQLHandler, graphqlSearchParams, restEngine } from './graphql.js';
import { prefer } from './prefer.js';
import { rateLimiter } from './rate-limit.js';
import { requestId } from './request-id.js';
import { auditRefusals } from './audit-refusals.js';
import { securityHeaders } from './security-headers.js';
import { mountRestRoutes } from './rest-router.js';
import { cookieSession, mountUi } from './ui/index.js';
import './types.js';

export interface AppDeps {
  services: Services;
  config: Config;
  log: Logger;
  schema: GraphQLSchema;
  runner: OperationRunner;
  /** The built web app (default: dist/web). */
  uiDir?: string;
}

/**
 * The whole HTTP surface, without listening (tests drive it with supertest). Middleware order, once:
 * request id → security headers → request log → Prefer deadline → the web app's session cookie (with its CSRF
 * header) turned into a Bearer header (ui/cookie-session.ts) → per route: rate limit → edition → authenticate
 * (headers) → guard → body bytes (a signature checked on them) → guard → body parsed → operation; then /graphql;
 * then the web app (/ui); then the 404 wrapper and the error handler. What the listening server enforces on
 * connections (timeouts, per address) is left in `app.locals.serverLimits` for createHttpServer.
 */
export function buildApp(deps: AppDeps): Express {
  const { services, config, log } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy !== false) app.set('trust proxy', config.trustProxy);

  app.use(requestId());
  app.use(auditRefusals(services.audit));
  app.use(urlGuard());
  // GraphiQL runs inline scripts, so no CSP; the other defaults (nosniff, frame options, …) apply everywhere.
  app.use(securityHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(accessLog(log));
  app.use(prefer({ allowBypass: config.allowTimeoutBypass, maxWaitSeconds: config.preferMaxWaitSeconds }));
  // The web app's session cookie (with its CSRF header) stands for a Bearer header from here on.
  app.use(cookieSession({ rootUrl: config.rootUrl }));

  const serverLimits: ServerLimits = {
    headersMs: config.timeouts.headersMs,
    requestMs: config.timeouts.requestMs,
    keepAliveMs: config.timeouts.keepAliveMs,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
  };
  app.locals.serverLimits = serverLimits;

  const limiter = rateLimiter({ rps: config.rateLimitRps });
  const auth = authenticate([jwtStrategy(services.identity), signatureStrategy(services.tokens)]);
  const contextFactory = createContextFactory(services, log);
  const incoming = path.join(config.dataDir, 'uploads', 'incoming');
  const receiveLimits = {
    maxBytes: config.maxJsonBodyBytes,
    anonymousMaxBytes: config.maxAnonymousBodyBytes,
    unverifiedMemoryBytes: config.unverifiedBodyMemoryBytes,
    spillDir: incoming,
    timeoutMs: config.timeouts.bodyMs,
    inFlight: new AddressBytes(config.maxBodyBytesInFlightPerAddress),
  };
  const parseLimits = { maxBytes: config.maxJsonBodyBytes, anonymousMaxBytes: config.maxAnonymousBodyBytes };
  // Upload routes know their caller from the headers before their body is written anywhere.
  const gate = uploadGate({ perCaller: config.uploadsPerCaller, diskBytesPerCaller: config.uploadDiskBytesPerCaller });

  app.get('/health', limiter('GET /health'), async (_req, res) => {
    res.json(await services.health());
  });

  // BloodHound's API document paths; generated from the route table (public, as BloodHound serves its spec).
  let spec: { json: string; yaml: string } | undefined;
  const specOf = async () => {
    if (!spec) {
      const doc = openApiDocument(ROUTES, config.rootUrl, (await services.search.info()).serverVersion);
      spec = { json: JSON.stringify(doc), yaml: openApiYaml(doc) };
    }
    return spec;
  };
  app.get('/api/v2/spec/openapi.yaml', limiter('GET /api/v2/spec'), (_req, res, next) => {
    specOf().then((s) => res.type('application/yaml').send(s.yaml), next);
  });
  app.get(['/api/v2/spec', '/api/v2/spec/openapi.json'], limiter('GET /api/v2/spec'), (_req, res, next) => {
    specOf().then((s) => res.type('application/json').send(s.json), next);
  });

  const yoga = createGraphQLHandler(deps.schema, contextFactory, log, { corsOrigins: config.corsOrigins });
  const envelope = restEngine(yoga, contextFactory);
  mountRestRoutes(app, ROUTES, {
    runner: deps.runner,
    envelope,
    edition: config.edition,
    limiter,
    authenticate: auth,
    bodyReader: (route: RestRoute) => {
      if (route.body === 'upload')
        return {
          receive: [gate, readUpload({ dir: incoming, maxBytes: config.maxUploadBytes, idleMs: config.timeouts.uploadIdleMs })],
          parse: parseRouteBody('none', parseLimits),
        };
      const kind = route.body ?? 'none';
      return { receive: [receiveRouteBody(kind, receiveLimits)], parse: parseRouteBody(kind, parseLimits) };
    },
  });

  app.all(
    '/graphql',
    // The GraphiQL page is ~9 MB of HTML and script: gzip it. API answers are left as they are.
    compression({ filter: (req) => req.method === 'GET' && /text\/html/i.test(String(req.headers.accept ?? '')) }),
    limiter('/graphql'),
    graphqlSearchParams(),
    auth,
    // Multipart (file uploads) passes the upload gate first: a caller known from the headers, per-caller caps.
    (req: express.Request, res: express.Response, next: express.NextFunction) =>
      /^multipart\//i.test(req.headers['content-type'] ?? '') ? gate(req, res, next) : next(),
    receiveRouteBody('graphql', { ...receiveLimits, multipartMaxBytes: config.maxGraphqlUploadBytes }),
    parseRouteBody('graphql', parseLimits),
    (req, res) => yoga(req, res, { req, res }),
  );

  mountUi(app, {
    runner: deps.runner,
    envelope,
    limiter,
    authenticate: auth,
    body: (kind) => [receiveRouteBody(kind, receiveLimits), parseRouteBody(kind, parseLimits)],
    rootUrl: config.rootUrl,
    dir: deps.uiDir,
  });

  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return app;
}
