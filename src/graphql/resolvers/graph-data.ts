import type { Resolvers } from '../../generated/graphql.js';

export const graphDataResolvers: Resolvers = {
  Query: {
    sourceKinds: (_, __, ctx) => ctx.services.clearDatabase.sourceKinds(),
    dataQuality: (_, { platform, environment, ...page }, ctx) =>
      ctx.services.dataQuality
        .history('data-quality', platform === 'AD' ? 'ad' : 'azure', environment ?? null, page)
        .then((p) => ({ ...p, totalCount: p.total, stats: p.rows })),
    completeness: (_, __, ctx) => ctx.services.dataQuality.completeness(),
    edgeComposition: (_, a, ctx) => ctx.services.explanations.composition(a.sourceNode, a.targetNode, a.edgeType),
    relayTargets: (_, a, ctx) => ctx.services.explanations.relayTargets(a.sourceNode, a.targetNode, a.edgeType),
    aclInheritance: (_, a, ctx) => ctx.services.explanations.aclInheritance(a.sourceNode, a.targetNode, a.edgeType),
    adcsEscalations: (_, { objectId, ...page }, ctx) => ctx.services.explanations.adcsEscalations(objectId, page),
  },
  Mutation: {
    clearDatabase: (_, { input }, ctx) => ctx.services.clearDatabase.clear(input, ctx.session!),
  },
};
