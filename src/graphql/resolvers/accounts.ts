import type { Resolvers } from '../../generated/graphql.js';
import { userOf } from './identity.js';

/** Account management; every rule lives in the accounts service. */
export const accountsResolvers: Resolvers = {
  Mutation: {
    setUserSecret: async (_, { id, input }, ctx) => {
      await ctx.services.accounts.setSecret(userOf(ctx), id, input);
      return true;
    },
    expireUserSecret: async (_, { id }, ctx) => {
      await ctx.services.accounts.expireSecret(userOf(ctx), id);
      return true;
    },
    updateUser: (_, { id, input }, ctx) => ctx.services.accounts.update(userOf(ctx), id, input),
    deleteUser: async (_, { id }, ctx) => {
      await ctx.services.accounts.delete(userOf(ctx), id);
      return true;
    },
    endUserSessions: (_, { id }, ctx) => ctx.services.accounts.endSessions(userOf(ctx), id),
    linkUserSso: async (_, { id, provider }, ctx) => {
      await ctx.services.accounts.linkSso(userOf(ctx), id, provider ?? null);
      return true;
    },
  },
};
