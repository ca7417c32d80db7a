import type { Resolvers } from '../../generated/graphql.js';
import { CERTIFICATION, CERTIFICATION_ACTION, SEED_TYPE, TAG_TYPE } from '../../services/asset-groups.js';
import { DATAPIPE_STATE, FILE_STATUS, JOB_STATUS } from '../../services/job-status.js';
import { enumResolver } from '../../services/enums.js';

/** Closed sets: GraphQL names, services' values (BloodHound's numbers), one table each (src/services/enums.ts). */
export const enumResolvers: Resolvers = {
  JobStatus: enumResolver(JOB_STATUS),
  IngestFileStatus: enumResolver(FILE_STATUS),
  DatapipeState: enumResolver(DATAPIPE_STATE),
  AssetGroupTagType: enumResolver(TAG_TYPE),
  CertificationStatus: enumResolver(CERTIFICATION),
  CertificationAction: enumResolver(CERTIFICATION_ACTION),
  SeedType: enumResolver(SEED_TYPE),
};
