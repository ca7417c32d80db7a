import type { Config } from '../config.js';
import type { AccountsService } from './accounts.js';
import type { AppConfigService } from './app-config.js';
import type { AssetGroupsService } from './asset-groups.js';
import type { ClientsService } from './clients.js';
import type { CollectionJobsService } from './collection-jobs.js';
import type { CollectorFiles } from './collector-files.js';
import type { CustomNodesService } from './custom-nodes.js';
import type { DatapipeService } from './datapipe.js';
import type { EntityService } from './entities.js';
import type { EventsService } from './events.js';
import type { GraphService } from './graph.js';
import type { Health } from './health.js';
import type { IdentityService } from './identity.js';
import type { JobListsService } from './job-lists.js';
import type { Loaders } from './loaders.js';
import type { PermissionsService } from './permissions.js';
import type { Scheduler } from './scheduler.js';
import type { SearchService } from './search.js';
import type { SecretsService } from './secrets.js';
import type { SsoService } from './sso.js';
import type { TokensService } from './tokens.js';

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
  graph: GraphService;
  /** Entity panels and their lists (issue 12), run on the path index. */
  entities: EntityService;
  search: SearchService;
  jobLists: JobListsService;
  datapipe: DatapipeService;
  clients: ClientsService;
  events: EventsService;
  collectionJobs: CollectionJobsService;
  scheduler: Scheduler;
  collectorFiles: CollectorFiles;
  customNodes: CustomNodesService;
  assetGroups: AssetGroupsService;
  sso: SsoService;
  /** Runtime parameters (GET|PUT /api/v2/config). */
  appConfig: AppConfigService;
  /** Fresh batch loaders for one request. */
  createLoaders(): Loaders;
  health(): Promise<Health>;
}
