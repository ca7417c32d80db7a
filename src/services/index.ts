import type { Config } from '../config.js';
import { appliedMigrationCount } from '../db/migrate.js';
import type { Database } from '../db/pool.js';
import { unavailable } from '../errors.js';
import { createPermissionsStore } from '../db/stores/permissions-store.js';
import { createPrincipalsStore } from '../db/stores/principals-store.js';
import { createSecretsStore } from '../db/stores/secrets-store.js';
import { createSessionsStore } from '../db/stores/sessions-store.js';
import { createTokensStore } from '../db/stores/tokens-store.js';
import { createUsersStore } from '../db/stores/users-store.js';
import path from 'node:path';
import { createDatapipeStore } from '../db/stores/datapipe-store.js';
import { PgGraphStore } from '../graph/pg/store.js';
import type { GraphStore } from '../graph/store.js';
import type { Logger } from '../logger.js';
import { createDatapipeService } from './datapipe.js';
import { createGraphService } from './graph.js';
import { GraphIndexHolder } from './graph-index-holder.js';
import { createIdentityService } from './identity.js';
import { createPermissionsService } from './permissions.js';
import { createTokensService } from './tokens.js';
import { createClientsStore } from '../db/stores/clients-store.js';
import { createEventsStore } from '../db/stores/events-store.js';
import { createJobsStore } from '../db/stores/jobs-store.js';
import { createClientsService } from './clients.js';
import { createCollectionJobsService } from './collection-jobs.js';
import { createCollectorFiles } from './collector-files.js';
import { createEventsService } from './events.js';
import { createLoaders } from './loaders.js';
import { createScheduler } from './scheduler.js';
import { createCustomNodesStore } from '../db/stores/custom-nodes-store.js';
import { createSsoStore } from '../db/stores/sso-store.js';
import { createTagsStore } from '../db/stores/tags-store.js';
import { createAssetGroupsService } from './asset-groups.js';
import { createCustomNodesService } from './custom-nodes.js';
import { createSsoService } from './sso.js';
import { Keyring } from '../auth/secret-box.js';
import { createSecretsService } from './secrets.js';
import { createAccountsService } from './accounts.js';
import { createLoginThrottleStore } from '../db/stores/login-throttle-store.js';

export interface ServiceDeps {
  db: Database;
  config: Config;
  log: Logger;
  clock: () => Date;
  /** 'embedded' (PGlite) or 'postgres'. */
  storage: string;
  /**
   * 'check' (the server, default): prove at start that the server key opens the stored secrets, and seal rows
   * stored in clear. 'lazy' (one-off commands): only when a command needs a secret.
   */
  secrets?: 'check' | 'lazy';
  /** The graph store; the PostgreSQL one by default (the only one built, see docs/scaling.md). */
  graphStore?: GraphStore;
}

/** Builds every store and service once per process; the GraphQL context hands the result to resolvers. */
export async function createServices(d: ServiceDeps) {
  const { db, config, log, clock } = d;
  const users = createUsersStore(db);
  const principals = createPrincipalsStore(db);
  const tokensStore = createTokensStore(db);
  // Token keys and the JWT key are sealed with a key outside the database (GAS_SECRET_KEY or DATA_DIR/secret.key).
  const keyring = new Keyring({ envKey: config.secretKey, envPrevious: config.secretKeyPrevious, dataDir: config.dataDir });
  const secretsStore = createSecretsStore(db);
  const secrets = createSecretsService({ tokens: tokensStore, secrets: secretsStore, keyring, log: log.child({ module: 'secrets' }) });
  const sessions = createSessionsStore(db);
  const identity = await createIdentityService({
    users,
    sessions,
    throttle: createLoginThrottleStore(db),
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
  // Wired at construction; the closures below reach services made further down, called only once requests flow.
  const tokens = createTokensService({
    tokens: tokensStore,
    principals,
    users,
    identity,
    clock,
    keyring,
    resolveClient: (clientId, tokenId) => clients.resolveSession(clientId, tokenId),
  });
  const graphStore = d.graphStore ?? new PgGraphStore(db);
  const graphIndex = new GraphIndexHolder(graphStore, { checkIntervalMs: config.indexCheckMs, log: log.child({ module: 'graph-index' }) });
  const customNodes = createCustomNodesService({ store: createCustomNodesStore(db), tx: (fn) => db.tx(fn), bind: createCustomNodesStore });
  const graph = createGraphService({ store: graphStore, index: graphIndex, icons: () => customNodes.icons() });
  const datapipe = createDatapipeService({
    store: createDatapipeStore(db),
    graph: graphStore,
    index: graphIndex,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: log.child({ module: 'datapipe' }),
    pollMs: config.datapipePollMs,
    tierZeroSeeds: () => createTagsStore(db).tierZeroSeeds(),
    afterAnalysis: () => assetGroups.refreshAll(),
    onJobFinished: (job, files) => collectionJobs.jobFinished(job, files),
    onRunEnd: () => collectionJobs.repairStranded(),
  });
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
  const assetGroups = createAssetGroupsService({
    store: createTagsStore(db),
    graph: graphStore,
    tx: (fn) => db.tx(fn),
    bind: createTagsStore,
  });
  const sso = createSsoService({
    store: createSsoStore(db),
    identity,
    tx: (fn) => db.tx(fn),
    bind: createSsoStore,
    rootUrl: config.rootUrl,
    log: log.child({ module: 'sso' }),
  });

  const accounts = createAccountsService({
    users,
    sessions,
    sso: createSsoStore(db),
    tx: (fn) => db.tx(fn),
    clock,
    log: log.child({ module: 'accounts' }),
  });

  return {
    storage: d.storage,
    edition: config.edition,
    identity,
    permissions,
    tokens,
    secrets,
    accounts,
    graphStore,
    graphIndex,
    graph,
    datapipe,
    clients,
    events,
    collectionJobs,
    scheduler,
    collectorFiles,
    customNodes,
    assetGroups,
    sso,
    /** Fresh batch loaders for one request. */
    createLoaders: () => createLoaders({ graph: graphStore, events, jobs: collectionJobs }),
    /** Starts background work (the data pipeline); `serve` calls it, one-off commands do not. */
    start() {
      datapipe.start();
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await datapipe.stop();
    },
    async health() {
      // Answers only once migrations ran and the store answers.
      if ((await appliedMigrationCount(db)) === 0) throw unavailable('health', 'The database has not been migrated yet.');
      return { status: 'ok', edition: config.edition, storage: d.storage };
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
