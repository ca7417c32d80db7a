import fs from 'node:fs';
import type { Logger } from '../../logger.js';
import { ClusterError, startCluster } from './cluster.js';
import { lockDataDir } from './lock.js';
import { clusterDir, embeddedInfoFile, holdsPglite, pgliteDir } from './paths.js';

export { EmbeddedInUse, isAlive } from './lock.js';
export { ClusterError } from './cluster.js';
export { clusterDir, embeddedInfoFile, holdsPglite, pgliteDir } from './paths.js';

/** The embedded PostgreSQL a process runs on DATA_DIR. */
export interface EmbeddedDatabase {
  /** A `pg` connection string for the cluster's unix socket. */
  url: string;
  stop(): Promise<void>;
}

/** DATA_DIR still holds an earlier version's PGlite database, not yet migrated. */
export class PgliteDataDir extends ClusterError {
  constructor(dataDir: string) {
    super(
      `DATA_DIR ${dataDir} holds the database of an earlier version (PGlite, in ${pgliteDir(dataDir)}): run ` +
        '`gas migrate-pglite` once to move it into the embedded PostgreSQL, then start again',
    );
  }
}

/**
 * Starts the embedded PostgreSQL on DATA_DIR (creating its cluster on first use) with DATA_DIR locked for this
 * process, and publishes its address for one-off commands unless `publish` is false.
 */
export async function startEmbedded(dataDir: string, log: Logger, opts: { publish?: boolean } = {}): Promise<EmbeddedDatabase> {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ClusterError(
      `DATA_DIR ${dataDir} cannot be created (${(err as NodeJS.ErrnoException).code}): choose a directory this user may write, or set DATABASE_URL`,
    );
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
