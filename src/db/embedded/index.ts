import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import { ClusterError, startCluster } from './cluster.js';
import { lockDataDir } from './lock.js';

export { EmbeddedInUse, isAlive } from './lock.js';
export { ClusterError } from './cluster.js';

/** The embedded PostgreSQL a process runs on DATA_DIR. */
export interface EmbeddedDatabase {
  /** A `pg` connection string for the cluster's unix socket. */
  url: string;
  stop(): Promise<void>;
}

/** Where a running server publishes its embedded database, so `gas ingest` etc. can reach it instead of the files. */
export const embeddedInfoFile = (dataDir: string) => path.join(dataDir, 'embedded.json');
/** The cluster's directory inside DATA_DIR. */
export const clusterDir = (dataDir: string) => path.join(dataDir, 'postgres');
/** Where an earlier version kept its database (PGlite); `gas migrate-pglite` moves it into the cluster. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata');

/** DATA_DIR still holds an earlier version's PGlite database, not yet migrated. */
export class PgliteDataDir extends ClusterError {
  constructor(dataDir: string) {
    super(
      `DATA_DIR ${dataDir} holds the database of an earlier version (PGlite, in ${pgliteDir(dataDir)}): run ` +
        '`gas migrate-pglite` once to move it into the embedded PostgreSQL, then start again',
    );
  }
}

export const holdsPglite = (dataDir: string) => fs.existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION'));

/**
 * Starts the embedded PostgreSQL on DATA_DIR (creating its cluster on first use) with DATA_DIR locked for this
 * process, and publishes its address for one-off commands unless `publish` is false.
 */
export async function startEmbedded(dataDir: string, log: Logger, opts: { publish?: boolean } = {}): Promise<EmbeddedDatabase> {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ClusterError(`DATA_DIR ${dataDir} cannot be created (${(err as NodeJS.ErrnoException).code}): choose a directory this user may write, or set DATABASE_URL`);
  }
  if (holdsPglite(dataDir)) throw new PgliteDataDir(dataDir);
  const release = lockDataDir(dataDir);
  const started = Date.now();
  let cluster;
  try {
    cluster = await startCluster({ dir: clusterDir(dataDir), log });
  } catch (err) {
    release();
    throw err;
  }
  log.info({ dataDir, ms: Date.now() - started }, 'embedded PostgreSQL started');
  const info = embeddedInfoFile(dataDir);
  if (opts.publish !== false) fs.writeFileSync(info, JSON.stringify({ url: cluster.url, pid: process.pid }), { mode: 0o600 });
  return {
    url: cluster.url,
    async stop() {
      if (opts.publish !== false) fs.rmSync(info, { force: true });
      await cluster.stop();
      release();
    },
  };
}
