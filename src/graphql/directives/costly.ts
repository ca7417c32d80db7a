import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { callerKey } from '../../services/common/costly-work.js';
import { COST_LIMITS, estimateField } from '../cost.js';
import type { GraphQLContext } from '../context.js';

/**
 * Every root field whose answer is estimated at COST_LIMITS.costlyValues values or more (a page of a thousand
 * nodes; src/graphql/cost.ts) runs in a turn of its caller's costly-work gate (src/services/common/costly-work.ts):
 * a document of nine aliased searches runs them two at a time, and one caller's burst never takes the whole
 * database pool. Every Cypher query takes a turn too. Cheaper fields (nearly every REST look-up) go on at once,
 * without a promise. Applied under the
 * auth directives, so a caller is authenticated and allowed before it waits for a turn.
 */
/** Root fields costly whatever their arguments say: a Cypher query's cost is only known once it has run. */
const ALWAYS_COSTLY = new Set(['cypher']);

export function applyCostlyTurns(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name].filter(Boolean));
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, _name, typeName) => {
      if (!roots.has(typeName)) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve(source, args, ctx: GraphQLContext, info) {
          const gate = ctx.services?.costlyWork;
          const values = !gate
            ? 0
            : ALWAYS_COSTLY.has(info.fieldName)
              ? Infinity
              : estimateField(info.schema, info.parentType, info.fieldNodes[0]!, info.fragments, info.variableValues);
          if (values < COST_LIMITS.costlyValues) return resolve(source, args, ctx, info);
          const turn = gate!.enter(callerKey(ctx.session, ctx.clientIp));
          const run = async (release: () => void) => {
            try {
              return await resolve(source, args, ctx, info);
            } finally {
              release();
            }
          };
          return turn instanceof Promise ? turn.then(run) : run(turn);
        },
      };
    },
  });
}
