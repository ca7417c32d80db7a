import type { Config } from '../config.js';
import type { CostlyWork } from './common/costly-work.js';
import type { ClearDatabaseService } from './graphdata/clear-database.js';
import type { DataQualityService } from './graphdata/data-quality.js';
import type { ExplanationsService } from './graphdata/explanations.js';
import type { AccountsService } from './identity/accounts.js';
import type { MfaService } from './identity/mfa.js';
import type { AuditService } from './audit/audit.js';
import type { AppConfigService } from './app/app-config.js';
import type { LegacyAssetGroupsService } from './zones/legacy-asset-groups.js';
import type { GraphSchemaService } from './graphdata/graph-schema.js';
import type { JobLogs } from './collectors/job-log.js';
import type { Kennel } from './collectors/kennel.js';
import type { RecordedAssetGroupsService } from './zones/tag-history.js';
import type { FeaturesService } from './app/features.js';
import type { ClientsService } from './collectors/clients.js';
import type { CollectionJobsService } from './collectors/collection-jobs.js';
import type { CollectorFiles } from './collectors/collector-files.js';
import type { CustomNodesService } from './graph/custom-nodes.js';
import type { CypherService } from './cypher/cypher.js';
import type { DatapipeService } from './datapipe/datapipe.js';
import type { EntityService } from './graph/entities.js';
import type { EventsService } from './collectors/events.js';
import type { GraphService } from './graph/graph.js';
import type { Health } from './app/health.js';
import type { IdentityService } from './identity/identity.js';
import type { JobListsService } from './collectors/job-lists.js';
import type { Loaders } from './collectors/loaders.js';
import type { PermissionsService } from './identity/permissions.js';
import type { Scheduler } from './collectors/scheduler.js';
import type { PrebuiltQueriesService } from './queries/prebuilt-queries.js';
import type { SavedQueriesService } from './queries/saved-queries.js';
import type { SearchService } from './graph/search.js';
import type { SecretsService } from './identity/secrets.js';
import type { SsoService } from './identity/sso.js';
import type { OidcService } from './identity/oidc.js';
import type { TokensService } from './identity/tokens.js';

/**
 * What the GraphQL context, REST and the command line reach: the services, each built once per process by the
 * composition root (src/main/compose.ts). Lifecycle (start/stop) stays with the root, not here; so does the raw graph
 * store and index (`ComposedServices.infra`): what reaches the graph from here goes through a service.
 */
export interface Services {
  /** 'embedded' (PGlite) or 'postgres'. */
  storage: string;
  edition: Config['edition'];
  identity: IdentityService;
  permissions: PermissionsService;
  tokens: TokensService;
  secrets: SecretsService;
  accounts: AccountsService;
  /** TOTP multi-factor authentication of password users. */
  mfa: MfaService;
  /** The audit log: every mutation and sign-in, written with the change it records. */
  audit: AuditService;
  graph: GraphService;
  /** Entity panels and their lists, run on the path index. */
  entities: EntityService;
  search: SearchService;
  /** Read-only Cypher over the graph (POST /api/v2/graphs/cypher, GraphQL `cypher`, saved queries, zone seeds). */
  cypher: CypherService;
  jobLists: JobListsService;
  datapipe: DatapipeService;
  clients: ClientsService;
  events: EventsService;
  collectionJobs: CollectionJobsService;
  scheduler: Scheduler;
  collectorFiles: CollectorFiles;
  customNodes: CustomNodesService;
  /** Zones and labels, every change recorded in the tag history. */
  assetGroups: RecordedAssetGroupsService;
  /** BloodHound's legacy asset-group API over zones and labels. */
  legacyAssetGroups: LegacyAssetGroupsService;
  sso: SsoService;
  oidc: OidcService;
  /** Saved Cypher queries: CRUD, sharing, import and export. */
  savedQueries: SavedQueriesService;
  /** The catalogue of pre-built queries. */
  prebuiltQueries: PrebuiltQueriesService;
  /** Runtime parameters (GET|PUT /api/v2/config). */
  appConfig: AppConfigService;
  /** Feature flags (GET /api/v2/features, toggles). */
  features: FeaturesService;
  /** Turns of costly work per caller (large GraphQL documents; the seam for Cypher queries). */
  costlyWork: CostlyWork;
  /** The graph's data as BloodHound users manage it: clearing, data quality, edge explanations. */
  clearDatabase: ClearDatabaseService;
  dataQuality: DataQualityService;
  explanations: ExplanationsService;
  /** OpenGraph extensions and the relationship kinds the client draws. */
  graphSchema: GraphSchemaService;
  /** Collector manifests from COLLECTORS_DIR as BloodHound's kennel serves them. */
  kennel: Kennel;
  jobLogs: JobLogs;
  /** Fresh batch loaders for one request. */
  createLoaders(): Loaders;
  health(): Promise<Health>;
}
