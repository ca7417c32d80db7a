import type { Resolvers } from '../../generated/graphql.js';

export const featuresResolvers: Resolvers = {
  Mutation: {
    toggleFeatureFlag: (_, { id }, ctx) => ctx.services.features.toggle(id),
  },
};
