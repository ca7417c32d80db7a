import type { Config } from '../config.js';
import { currentScope } from '../scope.js';
import type { Database } from '../db/pool.js';
import { createPermissionsStore } from '../db/stores/identity/permissions-store.js';
import { createPrincipalsStore } from '../db/stores/identity/principals-store.js';
import { createSecretsStore } from '../db/stores/identity/secrets-store.js';
import { createSessionsStore } from '../db/stores/identity/sessions-store.js';
import { createTokensStore } from '../db/stores/identity/tokens-store.js';
import { createUsersStore } from '../db/stores/identity/users-store.js';
import path from 'node:path';
import { createDatapipeStore } from '../db/stores/datapipe/datapipe-store.js';
import { PgGraphStore } from '../graph/pg/store.js';
import type { GraphStore } from '../graph/store.js';
import type { Logger } from '../logger.js';
import { createDatapipeService } from '../services/datapipe/datapipe.js';
import type { PipelineThread } from '../services/datapipe/upload-ingest.js';
import { createPipelineThread } from './pipeline-thread.js';
import { createGraphService } from '../services/graph/graph.js';
import { createEntityService } from '../services/graph/entities.js';
import { cachedNodeReads } from '../services/graph/node-cache.js';
import { createSearchService } from '../services/graph/search.js';
import { createCypherService } from '../services/cypher/cypher.js';
import { createTagMembersStore } from '../db/stores/cypher/tag-members-store.js';
import { createJobListsService } from '../services/collectors/job-lists.js';
import { createSearchStore } from '../db/stores/graph/search-store.js';
import { createJobListsStore } from '../db/stores/collectors/job-lists-store.js';
import { GraphIndexHolder } from '../services/graph/graph-index-holder.js';
import { createIdentityService } from '../services/identity/identity.js';
import { createPermissionsService } from '../services/identity/permissions.js';
import { createTokensService } from '../services/identity/tokens.js';
import { createClientsStore } from '../db/stores/collectors/clients-store.js';
import { createEventsStore } from '../db/stores/collectors/events-store.js';
import { createJobsStore } from '../db/stores/collectors/jobs-store.js';
import { createClientsService } from '../services/collectors/clients.js';
import { createCollectionJobsService } from '../services/collectors/collection-jobs.js';
import { createCollectorFiles } from '../services/collectors/collector-files.js';
import { createEventsService } from '../services/collectors/events.js';
import { createLoaders } from '../services/collectors/loaders.js';
import { CostlyWork } from '../services/common/costly-work.js';
import { createHealth } from '../services/app/health.js';
import type { Services } from '../services/index.js';
import { createScheduler } from '../services/collectors/scheduler.js';
import { createCustomNodesStore } from '../db/stores/graph/custom-nodes-store.js';
import { createSsoStore } from '../db/stores/identity/sso-store.js';
import { createOidcStore } from '../db/stores/identity/oidc-store.js';
import { createTagsStore } from '../db/stores/zones/tags-store.js';
import { createTagHistoryStore } from '../db/stores/zones/tag-history-store.js';
import { withTagHistory } from '../services/zones/tag-history.js';
import { createLegacyAssetGroups } from '../services/zones/legacy-asset-groups.js';
import { createGraphSchemaStore } from '../db/stores/graphdata/graph-schema-store.js';
import { createGraphSchemaService } from '../services/graphdata/graph-schema.js';
import { extensionIcons, mergeIcons } from '../services/graphdata/extension-icons.js';
import { createJobLogStore } from '../db/stores/collectors/job-log-store.js';
import { createJobLogs } from '../services/collectors/job-log.js';
import { createKennel } from '../services/collectors/kennel.js';
import { createAssetGroupsService } from '../services/zones/asset-groups.js';
import { createCustomNodesService } from '../services/graph/custom-nodes.js';
import { createSsoService } from '../services/identity/sso.js';
import { createOidcService } from '../services/identity/oidc.js';
import { Keyring } from '../auth/secret-box.js';
import { RevocableCache } from '../auth/revocable-cache.js';
import { listenForAuthChanges, type AuthChangeFeed } from '../db/auth-listener.js';
import { followGraph } from './follow-graph.js';
import type { TokenPrincipal } from '../db/stores/identity/principals-store.js';
import { createSecretsService } from '../services/identity/secrets.js';
import { createAccountsService } from '../services/identity/accounts.js';
import { createLoginThrottleStore } from '../db/stores/identity/login-throttle-store.js';
import { createLoginThrottle } from '../services/identity/login-throttle.js';
import { createAppConfigStore } from '../db/stores/app/app-config-store.js';
import { createAppConfigService } from '../services/app/app-config.js';
import { createSavedQueriesStore } from '../db/stores/queries/saved-queries-store.js';
import { createSavedQueriesService } from '../services/queries/saved-queries.js';
import { createPrebuiltQueriesService } from '../services/queries/prebuilt-queries.js';
import { createGraphDataStore } from '../db/stores/graphdata/graph-data-store.js';
import { createAclStore } from '../db/stores/graphdata/acl-store.js';
import { createClearDatabaseService } from '../services/graphdata/clear-database.js';
import { createDataQualityService } from '../services/graphdata/data-quality.js';
import { createExplanationsService } from '../services/graphdata/explanations.js';
import { createFeaturesStore } from '../db/stores/app/features-store.js';
import { createMfaStore } from '../db/stores/identity/mfa-store.js';
import { unitAware } from '../db/unit-of-work.js';
import { createAuditStore } from '../db/stores/audit/audit-store.js';
import { createAuditService } from '../services/audit/audit.js';
import { createMfaService, mfaIssuer } from '../services/identity/mfa.js';
import { createFeaturesService, FEATURE } from '../services/app/features.js';

export interface ComposeDeps {
  db: Database;
  config: Config;
  log: Logger;
  clock: () => Date;
  /** 'embedded' (the cluster in DATA_DIR) or 'postgres' (DATABASE_URL). */
  storage: string;
  /**
   * 'check' (the server, default): prove at start that the server key opens the stored secrets, and seal rows
   * stored in clear. 'lazy' (one-off commands): only when a command needs a secret.
   */
  secrets?: 'check' | 'lazy';
  /** The graph store; the PostgreSQL one by default (the only one built, see docs/operations.md). */
  graphStore?: GraphStore;
  /** Whether uploaded files and analysis run on the pipeline's worker thread. @default true */
  pipelineThread?: boolean;
}

/**
 * The infrastructure under the services, for tests and benchmarks that look at (or seed) the graph directly, and for
 * the server, which warms the path index once it listens. It is not part of `Services`, so nothing that serves
 * requests or commands can reach around the services to it.
 */
export interface Infra {
  graphStore: GraphStore;
  graphIndex: GraphIndexHolder;
  /** The data pipeline's worker thread, when it has one. */
  pipelineThread?: PipelineThread;
}

/** What the composition root hands back: the services, the background work they run, and what lies under them. */
export interface ComposedServices {
  services: Services;
  infra: Infra;
  /** Starts background work (the data pipeline, the scheduler); the server calls it, one-off commands do not. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * The composition root: database → stores → services, every link made here at construction (no setters or
 * listeners afterwards). The server, the command line, tests and benchmarks all build the service through it.
 */
export async function composeServices(d: ComposeDeps): Promise<ComposedServices> {
  const { config, log, clock } = d;
  // Every statement of a unit of work (a mutation and its audit row) joins its transaction (src/db/unit-of-work.ts).
  const db = unitAware(d.db);
  const users = createUsersStore(db);
  const principals = createPrincipalsStore(db);
  const tokensStore = createTokensStore(db);
  // Token keys and the JWT key are sealed with a key outside the database (GAS_SECRET_KEY or DATA_DIR/secret.key).
  const keyring = new Keyring({ envKey: config.secretKey, envPrevious: config.secretKeyPrevious, dataDir: config.dataDir });
  const secretsStore = createSecretsStore(db);
  const secrets = createSecretsService({
    tokens: tokensStore,
    secrets: secretsStore,
    mfa: createMfaStore(db),
    oidc: createOidcStore(db),
    sso: createSsoStore(db),
    keyring,
    log: log.child({ module: 'secrets' }),
  });
  const sessions = createSessionsStore(db);
  const throttle = createLoginThrottle(createLoginThrottleStore(db), clock);
  const mfaStore = createMfaStore(db);
  const mfa = createMfaService({
    store: mfaStore,
    users,
    keyring,
    throttle,
    clock,
    issuer: mfaIssuer(config.rootUrl),
    enrolmentAllowed: () => features.isEnabled(FEATURE.mfaLogin),
    log: log.child({ module: 'mfa' }),
  });
  const audit = createAuditService({ store: createAuditStore(db), users, db: d.db, clock, log: log.child({ module: 'audit' }) });
  const identity = await createIdentityService({
    users,
    sessions,
    throttle,
    audit,
    secondFactor: (userId, name, otp, ip) => mfa.checkLogin(userId, name, otp, ip),
    principals,
    secrets: secretsStore,
    keyring,
    tx: (fn) => db.tx(fn),
    clock,
    sessionTtlHours: config.sessionTtlHours,
    log: log.child({ module: 'identity' }),
  });
  const permissions = createPermissionsService(createPermissionsStore(db));
  if (d.secrets !== 'lazy') {
    await identity.checkSecrets();
    await secrets.sealPlain();
  }
  // Token principals are cached while every writer's change reaches this process as a notice, through a
  // LISTEN/NOTIFY connection of its own (the feed opens with the first signed request; docs/security.md).
  const principalCache = new RevocableCache<TokenPrincipal>();
  let authFeed: AuthChangeFeed | undefined;
  let following: (() => Promise<void>) | undefined;
  // A request still in flight when the services stop must not open a feed that nothing would close.
  let stopped = false;
  const watchAuth = () => {
    if (stopped) return;
    authFeed ??= listenForAuthChanges(db.pool.options, {
      pool: db.pool,
      log: log.child({ module: 'auth-feed' }),
      onChange: () => principalCache.invalidate(),
      onLive: (live) => principalCache.setLive(live),
    });
  };
  // Wired at construction; the closures below reach services made further down, called only once requests flow.
  const tokens = createTokensService({
    tokens: tokensStore,
    principals,
    users,
    identity,
    clock,
    keyring,
    log: log.child({ module: 'tokens' }),
    resolveClient: (clientId, tokenId) => clients.resolveSession(clientId, tokenId),
    principalCache: { get: (id, load) => (watchAuth(), principalCache.get(id, load)), invalidate: () => principalCache.invalidate() },
  });
  const graphStore = d.graphStore ?? new PgGraphStore(db);
  const graphIndex = new GraphIndexHolder(graphStore, { checkIntervalMs: config.indexCheckMs, log: log.child({ module: 'graph-index' }) });
  const customNodes = createCustomNodesService({ store: createCustomNodesStore(db), tx: (fn) => db.tx(fn), bind: createCustomNodesStore });
  const graphSchemaStore = createGraphSchemaStore(db);
  // Graph answers draw custom node kinds' icons, then those OpenGraph extensions give their kinds.
  const icons = mergeIcons(() => customNodes.icons(), extensionIcons(graphSchemaStore));
  // One memory of single nodes for both services: an entity panel's requests go to either.
  const nodes = cachedNodeReads(graphStore, graphIndex);
  const graph = createGraphService({
    store: graphStore,
    index: graphIndex,
    nodes,
    icons,
    traversableKinds: () => graphSchemaStore.traversableKinds(),
  });
  const entities = createEntityService({ store: graphStore, index: graphIndex, nodes, icons });
  const cypher = createCypherService({ index: graphIndex, store: graphStore, nodes, tags: createTagMembersStore(db) });
  const features = createFeaturesService(createFeaturesStore(db));
  const search = createSearchService({
    search: createSearchStore(db),
    graph: graphStore,
    edition: config.edition,
    features: () => features.list(),
  });
  const appConfig = createAppConfigService({ store: createAppConfigStore(db), sessionTtlHours: config.sessionTtlHours });
  // Uploaded files and analysis run on a worker thread with its own pool, so that requests are answered meanwhile;
  // a store given by the caller stays on this thread (the worker could not reach it).
  const pipelineThread =
    d.pipelineThread !== false && !d.graphStore && d.db.settings
      ? createPipelineThread({ db: d.db.settings, log: log.child({ module: 'datapipe' }) })
      : undefined;
  const datapipe = createDatapipeService({
    store: createDatapipeStore(db),
    graph: graphStore,
    index: graphIndex,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: log.child({ module: 'datapipe' }),
    pollMs: config.datapipePollMs,
    analysisHeapBytes: config.analysisMaxHeapMb === undefined ? undefined : config.analysisMaxHeapMb * 1024 ** 2,
    tierZeroSeeds: () => assetGroups.tierZeroSeeds(),
    citrixRdpSupport: () => appConfig.citrixRdpSupport(),
    // Zones follow the new graph; data quality is recorded once per run, for the history endpoints.
    afterAnalysis: async () => {
      await assetGroups.refreshAll();
      await dataQuality.record(`analysis ${clock().toISOString()}`);
    },
    onJobFinished: (job, files) => collectionJobs.jobFinished(job, files),
    onRunEnd: () => collectionJobs.repairStranded(),
    limits: config.archiveLimits,
    analysisMaxDelayMs: config.analysisMaxDelayMs,
    thread: pipelineThread,
  });
  const graphData = createGraphDataStore(db);
  const dataQuality = createDataQualityService({ store: graphData, clock });
  const clearDatabase = createClearDatabaseService({
    graph: graphStore,
    store: graphData,
    withLock: (fn) => datapipe.withIngestLock(fn),
    requestAnalysis: (s) => datapipe.requestAnalysis(s),
  });
  const explanations = createExplanationsService({ store: graphStore, nodes, acl: createAclStore(db) });
  const clientsStore = createClientsStore(db);
  const clients = createClientsService({
    clients: clientsStore,
    tokensStore,
    tokens,
    tx: (fn) => db.tx(fn),
    bindClients: createClientsStore,
    bindTokens: createTokensStore,
    clock,
  });
  const events = createEventsService({ events: createEventsStore(db), clients: clientsStore, clock });
  const collectionJobs = createCollectionJobsService({
    jobs: createJobsStore(db),
    clients: clientsStore,
    datapipe,
    clock,
    log: log.child({ module: 'jobs' }),
  });
  const scheduler = createScheduler({
    tx: (fn) => db.tx(fn),
    clock,
    log: log.child({ module: 'scheduler' }),
    pollMs: config.schedulerPollMs,
  });
  const collectorFiles = createCollectorFiles(config.collectorsDir);
  const tagHistory = createTagHistoryStore(db);
  const assetGroups = withTagHistory(
    createAssetGroupsService({
      store: createTagsStore(db),
      graph: graphStore,
      tx: (fn) => db.tx(fn),
      bind: createTagsStore,
      cypher: {
        check: (query) => void cypher.validate(query),
        // A seed's own bound, within the request's deadline when a request evaluates it (previews).
        nodeIds: async (query, bound) => {
          const own = Date.now() + bound.deadlineMs;
          const deadline = Math.min(own, currentScope()?.deadline ?? own);
          return (await cypher.nodeIds(query, { deadline, limits: { maxRows: bound.limit } })).slice(0, bound.limit);
        },
      },
    }),
    tagHistory,
  );
  const legacyAssetGroups = createLegacyAssetGroups({ assetGroups, store: tagHistory });
  const sso = createSsoService({
    store: createSsoStore(db),
    identity,
    tx: (fn) => db.tx(fn),
    bind: createSsoStore,
    rootUrl: config.rootUrl,
    log: log.child({ module: 'sso' }),
    users,
    oidc: createOidcStore(db),
    keyring,
  });
  const oidc = createOidcService({
    store: createOidcStore(db),
    sso: createSsoStore(db),
    tx: (fn) => db.tx(fn),
    bind: (q) => ({ sso: createSsoStore(q), oidc: createOidcStore(q) }),
    identity,
    keyring,
    rootUrl: config.rootUrl,
    log: log.child({ module: 'oidc' }),
  });

  const accounts = createAccountsService({
    users,
    sessions,
    sso: createSsoStore(db),
    tx: (fn) => db.tx(fn),
    clock,
    log: log.child({ module: 'accounts' }),
  });

  const savedQueries = createSavedQueriesService({
    store: createSavedQueriesStore(db),
    tx: (fn) => db.tx(fn),
    bind: createSavedQueriesStore,
    checkCypher: (query) => void cypher.validate(query),
    importMaxBytes: config.maxJsonBodyBytes,
  });

  const services: Services = {
    storage: d.storage,
    edition: config.edition,
    identity,
    permissions,
    tokens,
    secrets,
    accounts,
    mfa,
    audit,
    graph,
    entities,
    search,
    cypher,
    jobLists: createJobListsService({ store: createJobListsStore(db) }),
    datapipe,
    clients,
    events,
    collectionJobs,
    scheduler,
    collectorFiles,
    customNodes,
    assetGroups,
    legacyAssetGroups,
    sso,
    oidc,
    appConfig,
    features,
    costlyWork: new CostlyWork(config.costlyWork),
    savedQueries,
    prebuiltQueries: createPrebuiltQueriesService(),
    // Switched off by the clear_graph_data feature flag.
    clearDatabase: {
      ...clearDatabase,
      clear: async (...a) => (await features.require(FEATURE.clearGraphData, 'clear-database'), clearDatabase.clear(...a)),
    },
    dataQuality,
    explanations,
    graphSchema: createGraphSchemaService({
      store: graphSchemaStore,
      graph: graphStore,
      tx: (fn) => db.tx(fn),
      bind: createGraphSchemaStore,
    }),
    kennel: createKennel({ dir: config.collectorsDir, files: collectorFiles, rootUrl: config.rootUrl }),
    jobLogs: createJobLogs(createJobLogStore(db)),
    createLoaders: () => createLoaders({ graph: graphStore, events, jobs: collectionJobs }),
    health: createHealth({ db, edition: config.edition, storage: d.storage }),
  };
  return {
    services,
    infra: { graphStore, graphIndex, pipelineThread },
    start() {
      datapipe.start();
      scheduler.start();
      following = followGraph(db, graphIndex, config.indexCheckMs, log.child({ module: 'graph-feed' }));
    },
    async stop() {
      stopped = true;
      await following?.();
      await scheduler.stop();
      await datapipe.stop();
      await authFeed?.stop();
    },
  };
}
