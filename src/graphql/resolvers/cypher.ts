import type { Resolvers } from '../../generated/graphql.js';

export const cypherResolvers: Resolvers = {
  Query: {
    cypher: (_, { query, includeProperties, parameters }, ctx) =>
      ctx.services.cypher.run(query, { includeProperties, params: (parameters ?? null) as Record<string, unknown> | null }),
  },
  CypherResult: {
    rows: (r, { unlessGraph }) => (unlessGraph && r.nodes.length ? [] : r.rows),
  },
};
