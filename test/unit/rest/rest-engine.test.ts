import { makeExecutableSchema } from '@graphql-tools/schema';
import type { Request, Response } from 'express';
import { parse, type ExecutionResult } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { ContextFactory } from '../../../src/graphql/context-factory';
import { createGraphQLHandler, restEngine } from '../../../src/http/graphql';
import { createLogger } from '../../../src/logger';
import { MSG } from '../../../src/messages';
import { logSink } from '../../helpers/log-sink';

/**
 * The REST routes run their operations on /graphql's engine without yoga's per-request getEnveloped: the context
 * they see and the execution plugins they pass through must stay those of /graphql.
 */
describe('restEngine', () => {
  const schema = makeExecutableSchema({
    typeDefs: 'type Query { who: String, boom: String }',
    resolvers: {
      Query: {
        who: (_: unknown, __: unknown, ctx: { requestId: string; req: { path: string }; res: object }) =>
          `${ctx.requestId} ${ctx.req.path} ${typeof ctx.res}`,
        boom: () => {
          throw new Error('database password is hunter2');
        },
      },
    },
  });
  const factory = ((req: { requestId: string }) => ({ requestId: req.requestId })) as unknown as ContextFactory;
  const req = { requestId: 'req-1', path: '/api/v2/x' } as unknown as Request;
  const res = {} as Response;

  const run = async (engine: ReturnType<typeof restEngine>, query: string) => {
    const { schema: s, execute, contextFactory } = engine(req, res);
    return (await execute({ schema: s, document: parse(query), contextValue: contextFactory(), variableValues: {} })) as ExecutionResult;
  };

  it('gives resolvers the context /graphql gives them: req, res and the context factory’s fields', async () => {
    const sink = logSink();
    const engine = restEngine(createGraphQLHandler(schema, factory, createLogger('info', sink.stream)), factory);
    expect((await run(engine, '{ who }')).data).toEqual({ who: 'req-1 /api/v2/x object' });
  });

  it('runs the execution plugins of /graphql: an unexpected resolver error is logged and masked', async () => {
    const sink = logSink();
    const engine = restEngine(createGraphQLHandler(schema, factory, createLogger('info', sink.stream)), factory);
    const result = await run(engine, '{ boom }');
    expect(result.errors?.[0]?.message).toBe(MSG.internal);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(sink.lines.some((l) => l.includes('graphql resolver failed'))).toBe(true);
  });

  it('refuses to start when another plugin builds context, which this path would skip', () => {
    const yoga = createYoga({
      schema,
      context: () => ({}),
      plugins: [{ onContextBuilding: () => undefined }],
    });
    expect(() => restEngine(yoga as never, factory)).toThrow(/plugins hook context building/);
  });
});
