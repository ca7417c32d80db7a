import type { Resolvers } from '../../generated/graphql.js';

/** Previews of zone selectors: the nodes their seeds would select. */
export const selectorPreviewResolvers: Resolvers = {
  Query: {
    previewAssetGroupSelectors: (_, { seeds, limit }, ctx) => ctx.services.assetGroups.preview({ seeds, limit }),
  },
};
