import type { Resolvers } from '../../generated/graphql.js';

export const graphResolvers: Resolvers = {
  Query: {
    node: (_, { objectId }, ctx) => ctx.services.graph.node(objectId),
    userEntity: (_, { objectId }, ctx) => ctx.services.graph.userNode(objectId),
    groupPSRemoteRights: (_, { objectId, ...page }, ctx) => ctx.services.graph.list('groupPSRemoteRights', objectId, page),
    groupPSRemoteRightsGraph: (_, { objectId }, ctx) => ctx.services.graph.listGraph('groupPSRemoteRights', objectId),
    domainForeignGPOControllers: (_, { objectId, ...page }, ctx) => ctx.services.graph.list('domainForeignGPOControllers', objectId, page),
    domainForeignGPOControllersGraph: (_, { objectId }, ctx) => ctx.services.graph.listGraph('domainForeignGPOControllers', objectId),
    shortestPaths: (_, { start, end, relationshipKinds, onlyTraversable, allKinds }, ctx) =>
      ctx.services.graph.shortestPaths(start, end, { relationshipKinds, onlyTraversable, allKinds: allKinds ?? false }),
    graphCounts: (_, __, ctx) => ctx.services.graph.counts(),
  },
  GraphNode: {
    objectId: (n) => n.objectid,
    name: (n) => (typeof n.properties.name === 'string' ? n.properties.name : null),
    label: (n, _, ctx) => ctx.services.graph.label(n),
  },
  PathResult: {
    // Drawn only when selected: BloodHound's shortest-path route asks for the typed nodes and edges instead.
    graph: (r, _, ctx) => (r.pathCount ? ctx.services.entities.bloodhoundGraph(r) : {}),
  },
  UserEntity: {
    node: (n) => n,
    counts: (n, _, ctx) => ctx.services.graph.userCounts(n) as never,
  },
};
