import type { Plugin } from 'graphql-yoga';
import { COST_LIMITS, estimateValues } from '../graphql/cost.js';
import { badRequest } from '../errors.js';

/**
 * Refuses, before execution, a document whose answer would pass the response budget (src/graphql/cost.ts): a 400
 * naming it. REST routes run their own fixed documents through the same execution: they have no aliases and each
 * route caps its page size (1,000), so they are not refused. (Costly root fields, from either, take turns per caller:
 * src/graphql/directives/costly.ts.)
 */
export function responseBudget(): Plugin {
  return {
    onExecute({ args }) {
      if ((args.contextValue as { rest?: boolean }).rest) return;
      const values = estimateValues(args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown>);
      if (values > COST_LIMITS.maxValues)
        throw badRequest(
          'graphql',
          `The answer could hold about ${Math.round(values)} values, over the response budget of ${COST_LIMITS.maxValues}: ask for fewer aliases, smaller limits or less nesting.`,
        );
    },
  };
}
