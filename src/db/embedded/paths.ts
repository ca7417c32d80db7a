import fs from 'node:fs';
import path from 'node:path';

/** Where a running server publishes its embedded database, so `gas ingest` etc. can reach it instead of the files. */
export const embeddedInfoFile = (dataDir: string) => path.join(dataDir, 'embedded.json');
/** The cluster's directory inside DATA_DIR. */
export const clusterDir = (dataDir: string) => path.join(dataDir, 'postgres');
/** Where an earlier version kept its database (PGlite); `gas migrate-pglite` moves it into the cluster. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata');
/** Whether DATA_DIR still holds an earlier version's PGlite database. */
export const holdsPglite = (dataDir: string) => fs.existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION'));
