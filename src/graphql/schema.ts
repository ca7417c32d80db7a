import fs from 'node:fs';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { Resolvers } from '../generated/graphql.js';
import { applyAudit } from './directives/audit.js';
import { applyAuthDirectives } from './directives/auth.js';
import { applyCostlyTurns } from './directives/costly.js';
import { accountsResolvers } from './resolvers/accounts.js';
import { adminResolvers } from './resolvers/admin.js';
import { collectorsResolvers } from './resolvers/collectors.js';
import { commonResolvers } from './resolvers/common.js';
import { cypherResolvers } from './resolvers/cypher.js';
import { entitiesResolvers } from './resolvers/entities.js';
import { enumResolvers } from './resolvers/enums.js';
import { featuresResolvers } from './resolvers/features.js';
import { auditResolvers } from './resolvers/audit.js';
import { datapipeResolvers } from './resolvers/datapipe.js';
import { graphResolvers } from './resolvers/graph.js';
import { graphDataResolvers } from './resolvers/graph-data.js';
import { identityResolvers } from './resolvers/identity.js';
import { savedQueriesResolvers } from './resolvers/saved-queries.js';
import { selectorPreviewResolvers } from './resolvers/selector-preview.js';
import { zoneHistoryResolvers } from './resolvers/zone-history.js';
import { graphSchemaResolvers } from './resolvers/graph-schema.js';
import { ingestPostedResolvers } from './resolvers/ingest-posted.js';

/** `<repo>/schema`, from `src/graphql` (tests) and from `dist/graphql` (built service). */
export const SCHEMA_DIR = path.resolve(__dirname, '..', '..', 'schema');

export function loadTypeDefs(): string[] {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => fs.readFileSync(path.join(SCHEMA_DIR, f), 'utf8'));
}

const RESOLVERS: Resolvers[] = [
  commonResolvers,
  enumResolvers,
  identityResolvers,
  graphResolvers,
  graphDataResolvers,
  entitiesResolvers,
  datapipeResolvers,
  collectorsResolvers,
  adminResolvers,
  accountsResolvers,
  cypherResolvers,
  savedQueriesResolvers,
  selectorPreviewResolvers,
  zoneHistoryResolvers,
  graphSchemaResolvers,
  ingestPostedResolvers,
  featuresResolvers,
  auditResolvers,
];

/**
 * The one executable schema: SDL from schema/, resolvers per area, every root field guarded by its directives and
 * a costly one taking turns per caller.
 */
export function buildSchema(): GraphQLSchema {
  // Guards outermost: a costly field waits for its caller's turn only once the caller is let through.
  // Audit outermost: a mutation its guard refuses is recorded as a failure too.
  return applyAudit(
    applyAuthDirectives(applyCostlyTurns(makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: RESOLVERS as never }))),
  );
}
