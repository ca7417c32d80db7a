import { useGraphQlJit } from '@envelop/graphql-jit';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { NextFunction, Request, Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { CSRF_HEADER } from '../auth/session-cookie.js';
import { asAppError, badRequest } from '../errors.js';
import type { ContextFactory } from '../graphql/context-factory.js';
import type { Logger } from '../logger.js';
import { MSG } from '../messages.js';
import { currentScope } from '../scope.js';
import { responseBudget } from './graphql-cost.js';
import { bracketNesting, GRAPHQL_LIMITS, graphqlLimitPlugins } from './graphql-limits.js';
import { checkInput, clip } from './input-guard.js';

/**
 * GET /graphql carries variables and extensions as JSON text in the query string; yoga would parse them with a
 * bare JSON.parse, so bad JSON is refused here as a 400 first.
 */
export function graphqlSearchParams() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    for (const name of ['variables', 'extensions']) {
      const raw = req.query[name];
      if (raw === undefined) continue;
      if (typeof raw !== 'string') throw badRequest('graphql', `query parameter ${name} must be given once.`);
      if (!raw) continue;
      try {
        JSON.parse(raw);
      } catch (err) {
        throw badRequest('graphql', `query parameter ${name} is not valid JSON: ${clip((err as Error).message)}`);
      }
    }
    next();
  };
}

/** Variables and the document text pass the same NUL and depth checks as REST bodies. */
function guardParams(): Plugin {
  return {
    onParams({ params }) {
      if (typeof params.query === 'string') {
        if (params.query.includes('\u0000'))
          throw badRequest('graphql', 'The GraphQL document contains a NUL character, which is not accepted.');
        if (params.query.length > GRAPHQL_LIMITS.maxTokens * 64) throw badRequest('graphql', 'The GraphQL document is too long.');
        if (bracketNesting(params.query) > GRAPHQL_LIMITS.maxNesting)
          throw badRequest('graphql', `The GraphQL document nests more than ${GRAPHQL_LIMITS.maxNesting} levels of brackets.`);
      }
      checkInput('graphql', params.variables, 'The GraphQL variables');
      checkInput('graphql', params.extensions, 'The GraphQL extensions');
    },
  };
}

/**
 * A result with data, even partial, answers 200 (GraphQL over HTTP): a failing field fails alone, its error beside
 * the other fields' data with its code, not as the HTTP status. Only a request that produced no data (a bad
 * document, an unauthenticated call, a failing non-null root field) keeps its error's status.
 */
function partialResults(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('data' in result) || result.data == null || !result.errors?.length) return;
      const errors = result.errors.map((e) => {
        const http = e.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
        if (!http?.status) return e;
        const { status: _status, ...rest } = http;
        return new GraphQLError(e.message, {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          originalError: e.originalError,
          extensions: { ...e.extensions, http: rest },
        });
      });
      setResult({ ...result, errors });
    },
  };
}

/**
 * An answer computed on a path index that a newer graph is being built for says so in `extensions.graph` (the
 * generation it came from); X-Graph-Generation names it on every answer from the index.
 */
function graphGeneration(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      const graph = currentScope()?.graph;
      if (!graph?.rebuilding || Array.isArray(result) || !('data' in result)) return;
      setResult({ ...result, extensions: { ...result.extensions, graph } });
    },
  };
}

/**
 * graphql-yoga at /graphql: the same schema and context factory as the REST routes, graphql-jit for execution,
 * and a GraphiQL page that is self-contained (no CDN), so it works offline.
 */
export function createGraphQLHandler(
  schema: GraphQLSchema,
  contextFactory: ContextFactory,
  log: Logger,
  opts: { corsOrigins?: string[] } = {},
) {
  const origins = opts.corsOrigins ?? [];
  return createYoga<{ req: Request; res: Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    // Browsers may call from the configured origins only; yoga's default would reflect any origin.
    cors: origins.length
      ? { origin: origins, credentials: true, methods: ['GET', 'POST'], allowedHeaders: ['Authorization', 'Content-Type', 'Prefer'] }
      : false,
    context: ({ req }) => contextFactory(req),
    // GraphiQL signs in through the web app's session: its requests carry the app's CSRF header, so the browser's
    // session cookie authenticates them (sign in at /ui/ first; an Authorization header typed in still wins).
    graphiql: { title: 'Graph Analysis Service', additionalHeaders: { [CSRF_HEADER]: '1' } },
    renderGraphiQL,
    landingPage: false,
    // The limits come first: tokens while parsing, aliases/depth/cost/directives on entering validation, the
    // response budget (and a costly document's turn) before execution.
    plugins: [...graphqlLimitPlugins(), responseBudget(), guardParams(), useGraphQlJit(), partialResults(), graphGeneration()],
    logging: {
      debug: (...args) => log.debug({ args }, 'yoga'),
      info: (...args) => log.info({ args }, 'yoga'),
      warn: (...args) => log.warn({ args }, 'yoga'),
      error: (...args) => log.error({ args }, 'yoga'),
    },
    maskedErrors: {
      // Our AppErrors carry safe messages and their status; anything else is logged and replaced.
      maskError(error) {
        const app = asAppError(error);
        if (app) return error as Error;
        // GraphQL's own errors (validation, variable coercion) describe the request and are safe to show.
        if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return error;
        log.error({ err: error instanceof GraphQLError ? (error.originalError ?? error) : error }, 'graphql resolver failed');
        return new GraphQLError(MSG.internal, { extensions: { code: 'INTERNAL', http: { status: 500 } } });
      },
    },
  });
}

/**
 * The GraphQL engine the REST routes run their operations on: /graphql's own `execute` (every plugin's execution
 * hooks: graphql-jit, error masking), with the context /graphql builds, `{ req, res }` and our context factory's
 * fields. yoga's `getEnveloped` per request would build that context through envelop's plugin loop and its
 * promise helpers (~7 % of a signed look-up's CPU) for the one plugin that contributes to it; so the engine is taken
 * once and the context made directly. Start-up fails if another plugin ever hooks context building or
 * `getEnveloped`, which this path would skip.
 */
export function restEngine(yoga: ReturnType<typeof createGraphQLHandler>, contextFactory: ContextFactory) {
  // yoga keeps its plugin list on the server (typed protected; the adapter forwards the property).
  const plugins = (yoga as unknown as { plugins: (Plugin | undefined)[] }).plugins;
  const hooking = plugins.filter((p) => p && ('onContextBuilding' in p || 'onEnveloped' in p));
  if (hooking.length !== 1 || !hooking[0]!.onContextBuilding)
    throw new Error(
      `REST engine: ${hooking.length} GraphQL plugins hook context building or getEnveloped; expected only yoga's own context one`,
    );
  const { schema, execute } = yoga.getEnveloped({} as never);
  return (req: Request, res: Response) => ({
    schema,
    execute: execute as (args: object) => unknown,
    contextFactory: () => ({ req, res, rest: true, ...contextFactory(req) }),
  });
}
