import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { startEmbedded, type EmbeddedDatabase } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { Database } from '../db/pool.js';
import { answerClientErrors } from '../http/client-error.js';
import { createHttpServer } from '../http/http-server.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { compose } from './compose.js';

export interface Storage {
  db: Database;
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

/** Opens the configured storage: DATABASE_URL, or embedded PGlite in DATA_DIR, reached through `pg` either way. */
export async function openStorage(config: Config, log: Logger, opts: { publish?: boolean } = {}): Promise<Storage> {
  if (config.databaseUrl) {
    const db = new Database(config.databaseUrl, { log: log.child({ module: 'db' }) });
    return { db, kind: 'postgres', close: () => db.close() };
  }
  const embedded: EmbeddedDatabase = await startEmbedded(config.dataDir, log, opts);
  const db = new Database(embedded.url, { log: log.child({ module: 'db' }) });
  return {
    db,
    kind: 'embedded',
    async close() {
      await db.close();
      await embedded.stop();
    },
  };
}

export interface RunningServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/** `gas serve`: storage, migrations, first administrator, then HTTP. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const storage = await openStorage(config, log);
  await migrate(storage.db, log);
  const { services, app, start, stop } = await compose({ db: storage.db, config, log, clock: () => new Date(), storage: storage.kind });
  const admin = await services.identity.ensureAdmin(config.adminPassword);
  if (admin.created && admin.password) {
    // Printed once, on the first start only; it is not stored anywhere in clear.
    process.stderr.write(
      `\nCreated user "admin" (Administrator) with password: ${admin.password}\nChange it (gas user passwd admin, or PUT /api/v2/bloodhound-users/{id}/secret), or set GAS_ADMIN_PASSWORD before the first start.\n\n`,
    );
    log.warn({ user: 'admin' }, 'initial administrator created with a generated password (printed on stderr)');
  } else if (admin.created) {
    log.info({ user: 'admin' }, 'initial administrator created from GAS_ADMIN_PASSWORD');
  }
  start();
  const server: Server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  answerClientErrors(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info({ url, edition: config.edition, storage: storage.kind }, 'graph analysis service listening');
  return {
    url,
    services,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
      await storage.close();
    },
  };
}
