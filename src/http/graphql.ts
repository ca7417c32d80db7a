import { useGraphQlJit } from '@envelop/graphql-jit';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { asAppError } from '../errors.js';
import type { ContextFactory } from '../graphql/context-factory.js';
import type { Logger } from '../logger.js';
import { MSG } from '../messages.js';

/**
 * graphql-yoga at /graphql: the same schema and context factory as the REST routes, graphql-jit for execution,
 * and a GraphiQL page that is self-contained (no CDN), so it works offline.
 */
export function createGraphQLHandler(schema: GraphQLSchema, contextFactory: ContextFactory, log: Logger) {
  return createYoga<{ req: Request; res: Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ req }) => contextFactory(req),
    graphiql: { title: 'Graph Analysis Service' },
    renderGraphiQL,
    landingPage: false,
    plugins: [useGraphQlJit()],
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
