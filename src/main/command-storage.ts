import fs from 'node:fs';
import type { Config } from '../config.js';
import { embeddedInfoFile, isAlive } from '../db/embedded/index.js';
import { Database } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { openStorage, type Storage } from './storage.js';

/**
 * Storage for one-off `gas` commands: DATABASE_URL, or the embedded store in DATA_DIR. With a server already running
 * on the same DATA_DIR, its database is that server's: the command talks to it through the address it published
 * instead of opening the files. The command line reaches storage through this one function.
 */
export async function openCommandStorage(config: Config, log: Logger): Promise<Storage> {
  if (!config.databaseUrl) {
    const info = embeddedInfoFile(config.dataDir);
    if (fs.existsSync(info)) {
      const { url, pid } = JSON.parse(fs.readFileSync(info, 'utf8')) as { url: string; pid: number };
      if (isAlive(pid)) {
        const db = new Database(url, { log });
        return { db, kind: 'embedded', close: () => db.close() };
      }
    }
  }
  return openStorage(config, log, { publish: false });
}
