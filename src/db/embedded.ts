import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  /** A `pg` connection string for the socket the embedded database listens on. */
  url: string;
  stop(): Promise<void>;
}

/** Where a running server publishes its embedded database, so `gas ingest` etc. can reach it instead of the files. */
export const embeddedInfoFile = (dataDir: string) => path.join(dataDir, 'embedded.json');

/**
 * Starts PGlite (PostgreSQL compiled to WASM) on `dataDir` and serves it over the PostgreSQL wire protocol on
 * 127.0.0.1, so the rest of the service talks to it through `pg` exactly as it talks to a real server.
 * `dataDir` of `memory://` keeps everything in memory (tests).
 */
export async function startEmbedded(dataDir: string, log: Logger, opts: { publish?: boolean } = {}): Promise<EmbeddedDatabase> {
  const inMemory = dataDir === 'memory://';
  const pgdata = inMemory ? undefined : path.join(dataDir, 'pgdata');
  if (pgdata) fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  const started = Date.now();
  const db = await PGlite.create(pgdata ? { dataDir: pgdata } : {});
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  await server.start();
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  const url = `postgres://postgres@127.0.0.1:${address.port}/postgres`;
  log.info({ dataDir: pgdata ?? 'memory', ms: Date.now() - started }, 'embedded PostgreSQL (PGlite) started');
  const info = inMemory ? undefined : embeddedInfoFile(dataDir);
  if (info && opts.publish !== false) fs.writeFileSync(info, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  return {
    url,
    async stop() {
      if (info && fs.existsSync(info)) fs.rmSync(info, { force: true });
      await server.stop();
      await db.close();
    },
  };
}
