import type { Resolvers } from '../../generated/graphql.js';
import { userOf } from './identity.js';

export const auditResolvers: Resolvers = {
  Query: {
    auditLogs: (_, a, ctx) => ctx.services.audit.list({ ...a, filters: a.filters ?? [] }),
    auditRetentionDays: (_, __, ctx) => ctx.services.audit.retentionDays(),
  },
  Mutation: {
    setAuditRetention: (_, { days }, ctx) => ctx.services.audit.setRetentionDays(days, userOf(ctx).principalName),
  },
  AuditLog: {
    commitId: (row) => String(row.commitId),
  },
};
