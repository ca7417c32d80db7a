import type { Resolvers } from '../../generated/graphql.js';
import { AppError } from '../../errors.js';
import { userOf } from './identity.js';

/** Saved and pre-built queries: each field reads its arguments and calls the saved-queries service with the calling user. */
export const savedQueriesResolvers: Resolvers = {
  Query: {
    savedQueries: (_, { scopes, skip, limit, sortBy, filters }, ctx) =>
      ctx.services.savedQueries.list(userOf(ctx), { scopes, skip, limit, sortBy, filters }),
    savedQuery: (_, { id }, ctx) => ctx.services.savedQueries.get(userOf(ctx), id),
    savedQuerySharing: (_, { id }, ctx) => ctx.services.savedQueries.sharing(userOf(ctx), id),
    exportSavedQuery: (_, { id }, ctx) => ctx.services.savedQueries.exportOne(userOf(ctx), id),
    exportSavedQueries: (_, { scope }, ctx) => ctx.services.savedQueries.exportMany(userOf(ctx), scope),
    prebuiltQueries: (_, { category, platform }, ctx) => ctx.services.prebuiltQueries.list({ category, platform }),
    prebuiltQueryCategories: (_, { platform, category }, ctx) => ctx.services.prebuiltQueries.categories({ platform, category }),
    prebuiltQuery: (_, { id }, ctx) => ctx.services.prebuiltQueries.get(id),
  },
  Mutation: {
    createSavedQuery: (_, { input }, ctx) => ctx.services.savedQueries.create(userOf(ctx), input),
    updateSavedQuery: (_, { id, input }, ctx) => ctx.services.savedQueries.update(userOf(ctx), id, input),
    deleteSavedQuery: async (_, { id }, ctx) => {
      await ctx.services.savedQueries.delete(userOf(ctx), id);
      return true;
    },
    shareSavedQuery: (_, { id, userIds, public: pub }, ctx) => ctx.services.savedQueries.share(userOf(ctx), id, { userIds, public: pub }),
    unshareSavedQuery: async (_, { id, userIds }, ctx) => {
      await ctx.services.savedQueries.unshare(userOf(ctx), id, { userIds });
      return true;
    },
    importSavedQueries: (_, { file }, ctx) => ctx.services.savedQueries.importFile(userOf(ctx), file),
  },
  SavedQuery: {
    // BloodHound answers an unshared query's permissions with 404; for its owner that simply means nobody.
    sharedToUserIds: async (q, _, ctx) => {
      const s = userOf(ctx);
      if (q.userId !== s.userId) return null;
      try {
        return (await ctx.services.savedQueries.sharing(s, q.id)).sharedToUserIds;
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return [];
        throw err;
      }
    },
  },
  SavedQueryFile: {
    base64: (f) => f.data.toString('base64'),
  },
};
