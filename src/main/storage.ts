import type { Config } from '../config.js';
import { startEmbedded } from '../db/embedded/index.js';
import { Database } from '../db/pool.js';
import type { Logger } from '../logger.js';

export interface Storage {
  db: Database;
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

/** Opens the configured storage: DATABASE_URL, or the embedded PostgreSQL cluster in DATA_DIR, reached through `pg` either way. */
export async function openStorage(config: Config, log: Logger, opts: { publish?: boolean } = {}): Promise<Storage> {
  if (config.databaseUrl) {
    const db = new Database(config.databaseUrl, { log: log.child({ module: 'db' }) });
    return { db, kind: 'postgres', close: () => db.close() };
  }
  const embedded = await startEmbedded(config.dataDir, log, opts);
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
