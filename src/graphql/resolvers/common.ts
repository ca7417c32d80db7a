import type { Resolvers } from '../../generated/graphql.js';
import { DateTime, JSONScalar } from '../scalars.js';

export const commonResolvers: Resolvers = {
  DateTime,
  JSON: JSONScalar,
  Query: {
    health: (_, __, ctx) => ctx.services.health(),
  },
};
