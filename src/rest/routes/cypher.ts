import { z } from 'zod';
import { cypherAnswer } from '../reshape/cypher.js';
import { route } from '../route.js';

const body = z.object({
  query: z.string({ error: 'is required: a Cypher query.' }),
  include_properties: z.boolean().optional(),
});

/**
 * BloodHound's raw Cypher endpoint (graphdb/Read; the engine is read-only, so BloodHound's mutation path, which
 * needs graphdb/Mutate, never opens). Two declarations of one route: the reshape differs with include_properties.
 */
export const cypherRoutes = [true, false].map((withProperties) =>
  route('POST', '/api/v2/graphs/cypher', 'cypher', 'CypherQuery', {
    body: 'json',
    input: { body },
    when: ({ body }) => (body.include_properties === true) === withProperties,
    variables: ({ body }) => ({ query: body.query, includeProperties: withProperties }),
    reshape: ({ cypher }) => cypherAnswer(cypher, withProperties),
  }),
);
