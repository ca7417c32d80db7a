import type { Resolvers } from '../../generated/graphql.js';
import { DOG_TAGS } from '../../services/app/dog-tags.js';

/** OpenGraph's schema API, the client's edge types and dog tags, kennel manifests and job logs. */
export const graphSchemaResolvers: Resolvers = {
  Query: {
    graphExtensions: (_, __, ctx) => ctx.services.graphSchema.list(),
    graphExtension: (_, { id }, ctx) => ctx.services.graphSchema.get(id),
    edgeTypes: (_, __, ctx) => ctx.services.graphSchema.edgeTypes(),
    extensionEdges: (_, a, ctx) => ctx.services.graphSchema.extensionEdges(a),
    extensionNodeKind: (_, { id }, ctx) => ctx.services.graphSchema.nodeKind(id),
    extensionRelationshipKind: (_, { id }, ctx) => ctx.services.graphSchema.relationshipKind(id),
    graphNodeById: (_, { id }, ctx) => ctx.services.graphSchema.node(id),
    graphEdgeById: (_, { id }, ctx) => ctx.services.graphSchema.edge(id),
    dogTags: () => DOG_TAGS,
    kennelManifest: (_, __, ctx) => ctx.services.kennel.community(),
    kennelEnterpriseManifest: (_, __, ctx) => ctx.services.kennel.enterprise(),
  },
  Mutation: {
    putGraphExtension: (_, { document }, ctx) => ctx.services.graphSchema.put(document),
    deleteGraphExtension: async (_, { id }, ctx) => {
      await ctx.services.graphSchema.remove(id);
      return true;
    },
  },
  CollectionJob: {
    log: (j, _, ctx) => ctx.services.jobLogs.log(j.id),
  },
};
