import type { Resolvers } from '../../generated/graphql.js';
import { CERTIFICATION, CERTIFICATION_ACTION, SEED_TYPE, TAG_TYPE } from '../../services/zones/asset-groups.js';
import { CERTIFICATION_FILTER_COLUMN } from '../../services/zones/certification-filters.js';
import { CLIENT_TYPE } from '../../services/collectors/clients.js';
import { EDITION } from '../../services/app/edition.js';
import { EVENT_FILTER_COLUMN } from '../../services/collectors/event-filters.js';
import { EVENT_SORT_COLUMN } from '../../services/collectors/events.js';
import { DATAPIPE_STATE, END_JOB_STATUS, FILE_STATUS, JOB_STATUS } from '../../services/common/job-status.js';
import { NODE_SORT_COLUMN } from '../../services/graph/node-lists.js';
import { SSO_PROVIDER_TYPE } from '../../services/identity/sso.js';
import { enumResolver } from '../../services/common/enums.js';
import { FILTER_COLUMN, SCOPE, SORT_COLUMN } from '../../services/queries/list-params.js';

/** Closed sets: GraphQL names, services' values (BloodHound's numbers), one table each (src/services/common/enums.ts). */
export const enumResolvers: Resolvers = {
  JobStatus: enumResolver(JOB_STATUS),
  IngestFileStatus: enumResolver(FILE_STATUS),
  DatapipeState: enumResolver(DATAPIPE_STATE),
  AssetGroupTagType: enumResolver(TAG_TYPE),
  CertificationStatus: enumResolver(CERTIFICATION),
  CertificationAction: enumResolver(CERTIFICATION_ACTION),
  MemberCertificationColumn: enumResolver(CERTIFICATION_FILTER_COLUMN),
  SeedType: enumResolver(SEED_TYPE),
  ClientType: enumResolver(CLIENT_TYPE),
  EndJobStatus: enumResolver(END_JOB_STATUS),
  SsoProviderType: enumResolver(SSO_PROVIDER_TYPE),
  EventFilterColumn: enumResolver(EVENT_FILTER_COLUMN),
  EventSortColumn: enumResolver(EVENT_SORT_COLUMN),
  NodeSortColumn: enumResolver(NODE_SORT_COLUMN),
  Edition: enumResolver(EDITION),
  SavedQueryScope: enumResolver(SCOPE),
  SavedQuerySortColumn: enumResolver(SORT_COLUMN),
  SavedQueryFilterColumn: enumResolver(FILTER_COLUMN),
};
