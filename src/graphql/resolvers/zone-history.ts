import type { Resolvers } from '../../generated/graphql.js';
import { badRequest } from '../../errors.js';
import { HISTORY_FILTERS, type TagHistoryColumn } from '../../services/zones/tag-history.js';
import { userOf } from './identity.js';

const column = (name: string): TagHistoryColumn => {
  if (!Object.hasOwn(HISTORY_FILTERS, name)) {
    throw badRequest('asset-group-tags', `${name} is not a filterable column; use one of: ${Object.keys(HISTORY_FILTERS).join(', ')}.`);
  }
  return name as TagHistoryColumn;
};

/** Tag history and search, the tag fields BloodHound adds, and the legacy asset-group API over zones and labels. */
export const zoneHistoryResolvers: Resolvers = {
  Query: {
    assetGroupTagHistory: (_, { filters, ...rest }, ctx) =>
      ctx.services.assetGroups.history({ ...rest, filters: (filters ?? []).map((f) => ({ column: column(f.column), value: f.value })) }),
    assetGroupTagSearch: (_, a, ctx) => ctx.services.legacyAssetGroups.search(a),
    legacyAssetGroups: (_, __, ctx) => ctx.services.legacyAssetGroups.list(),
    legacyAssetGroup: (_, { id }, ctx) => ctx.services.legacyAssetGroups.get(id),
    legacyAssetGroupMembers: (_, { id, ...page }, ctx) => ctx.services.legacyAssetGroups.members(id, page),
  },
  Mutation: {
    createLegacyAssetGroup: (_, a, ctx) => ctx.services.legacyAssetGroups.create(userOf(ctx), a),
    updateLegacyAssetGroup: (_, { id, ...a }, ctx) => ctx.services.legacyAssetGroups.update(userOf(ctx), id, a),
    deleteLegacyAssetGroup: async (_, { id }, ctx) => {
      await ctx.services.legacyAssetGroups.remove(userOf(ctx), id);
      return true;
    },
    updateLegacyAssetGroupSelectors: (_, { id, changes }, ctx) => ctx.services.legacyAssetGroups.updateSelectors(userOf(ctx), id, changes),
    deleteLegacyAssetGroupSelector: async (_, { id, selectorId }, ctx) => {
      await ctx.services.legacyAssetGroups.removeSelector(userOf(ctx), id, selectorId);
      return true;
    },
  },
  AssetGroupTag: {
    kindId: async (t, _, ctx) => (await ctx.services.assetGroups.tagExtras([t.id]))[0]?.kindId ?? null,
    analysisEnabled: async (t, _, ctx) => (await ctx.services.assetGroups.tagExtras([t.id]))[0]?.analysisEnabled ?? null,
    glyph: async (t, _, ctx) => (await ctx.services.assetGroups.tagExtras([t.id]))[0]?.glyph ?? null,
  },
};
