import { notFound } from '../../errors.js';
import type { Resolvers } from '../../generated/graphql.js';
import { ACCEPTED_UPLOAD_TYPES } from '../../services/datapipe/datapipe.js';
import { LISTS } from '../../services/graph/entities-lists.js';
import { tagMemberCounts } from '../../services/zones/tag-counts.js';

/** Entity panels, search and inventories (schema/entities.graphql). */
export const entitiesResolvers: Resolvers = {
  Query: {
    entity: (_, { objectId, kind }, ctx) => ctx.services.entities.find('entities', objectId, kind ?? undefined),
    search: (_, args, ctx) => ctx.services.search.search('search', args),
    availableDomains: (_, __, ctx) => ctx.services.search.availableDomains(),
    graphKinds: async (_, { category }, ctx) =>
      category
        ? ctx.services.search.kinds(category)
        : [...(await ctx.services.search.kinds('NODE')), ...(await ctx.services.search.kinds('EDGE'))],
    serviceInfo: (_, __, ctx) => ctx.services.search.info(),
    collectionJobs: (_, args, ctx) => ctx.services.jobLists.list(args),
    certifications: (_, args, ctx) => ctx.services.assetGroups.certifications(args),
    memberCertifications: (_, args, ctx) => ctx.services.assetGroups.memberCertifications(args),
    role: async (_, { id }, ctx) => {
      const found = (await ctx.services.permissions.listRoles()).find((r) => r.id === id);
      if (!found) throw notFound('roles', `No role ${id}.`);
      return found;
    },
    acceptedUploadTypes: () => [...ACCEPTED_UPLOAD_TYPES],
  },
  Entity: {
    node: (e) => e.node,
    type: (e) => e.type.path,
    kind: (e) => e.type.kind,
    azure: (e) => !!e.type.azure,
    lists: (e) => e.type.lists.map((l) => LISTS[l].key) as never,
    counts: async (e, _, ctx) => (await ctx.services.entities.counts(e)).map((c) => ({ list: c.key as never, count: c.count })),
    list: (e, { name, ...page }, ctx) => ctx.services.entities.list(e.type.path, e, name, page),
    graph: (e, { name }, ctx) => ctx.services.entities.listGraph(e.type.path, e, name),
  },
  AssetGroupTag: {
    selectorList: (t, page, ctx) => ctx.services.assetGroups.selectorPage(t.id, page),
    memberCounts: (t, { selectorId }, ctx) => tagMemberCounts(ctx.services.assetGroups, t.id, selectorId ?? null),
    selector: async (t, { id }, ctx) => {
      const found = (await ctx.services.assetGroups.listSelectors(t.id)).find((s) => s.id === id);
      if (!found) throw notFound('asset-group-tags', `Tag ${t.id} has no selector ${id}.`);
      return found;
    },
  },
  NodeListEntry: {
    properties: async (e, _, ctx) => (await ctx.loaders.nodeByObjectId.load(e.objectId))?.properties ?? {},
  },
  SearchResult: {
    graph: async (r, _, ctx) => {
      const nodes = await Promise.all(r.nodes.map((n) => ctx.loaders.nodeByObjectId.load(n.objectId)));
      return { nodes: nodes.filter((n) => n !== null), edges: [] };
    },
  },
  Graph: {
    bloodhound: (g, _, ctx) => ctx.services.entities.bloodhoundGraph(g),
  },
  GraphEdge: {
    source: (e) => e.startId,
    target: (e) => e.endId,
  },
};
