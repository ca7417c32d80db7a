import fs from 'node:fs';
import pg from 'pg';
import type { Logger } from '../../logger.js';
import { migrate } from '../migrate.js';
import { Database } from '../pool.js';
import { ClusterError, startCluster } from './cluster.js';
import { clusterDir, holdsPglite, pgliteDir } from './paths.js';
import { lockDataDir } from './lock.js';

interface Pglite {
  query<R>(sql: string): Promise<{ rows: R[]; blob?: Blob }>;
  close(): Promise<void>;
}

export interface PgliteImport {
  tables: number;
  rows: number;
  /** Where the earlier database was moved (kept until the user removes it). */
  kept: string;
}

const TABLES = `select table_name as name from information_schema.tables
  where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'schema_migrations' order by 1`;
const COLUMNS = `select table_name as t, column_name as c from information_schema.columns
  where table_schema = 'public' and is_generated = 'NEVER' order by table_name, ordinal_position`;

function columnsByTable(rows: { t: string; c: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { t, c } of rows) out.set(t, [...(out.get(t) ?? []), c]);
  return out;
}

/**
 * Moves an earlier version's PGlite database (DATA_DIR/pgdata) into a new embedded cluster: the cluster is made and
 * migrated beside the final one, every table the two share is copied with the columns they share (a database of an
 * older version lacks later columns, which keep their defaults), sequences follow, and only then is the cluster put
 * in place and pgdata renamed aside. A failure leaves DATA_DIR as it was.
 */
export async function importPglite(dataDir: string, log: Logger): Promise<PgliteImport> {
  if (!holdsPglite(dataDir)) throw new ClusterError(`DATA_DIR ${dataDir} holds no earlier (PGlite) database to migrate`);
  if (fs.existsSync(clusterDir(dataDir))) {
    throw new ClusterError(
      `DATA_DIR ${dataDir} already holds an embedded PostgreSQL cluster (${clusterDir(dataDir)}): move it away to migrate again`,
    );
  }
  const release = lockDataDir(dataDir);
  const staging = `${clusterDir(dataDir)}.import`;
  fs.rmSync(staging, { recursive: true, force: true });
  let old: Pglite | undefined;
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  let db: Database | undefined;
  try {
    // Loaded only here: the one use of PGlite left is reading an earlier version's database.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PGlite } = require('@electric-sql/pglite') as { PGlite: { create(o: { dataDir: string }): Promise<Pglite> } };
    old = await PGlite.create({ dataDir: pgliteDir(dataDir) });
    cluster = await startCluster({ dir: staging, log });
    db = new Database(cluster.url, { log });
    await migrate(db, log);
    const oldTables = new Set((await old.query<{ name: string }>(TABLES)).rows.map((r) => r.name));
    const oldColumns = columnsByTable((await old.query<{ t: string; c: string }>(COLUMNS)).rows);
    const newColumns = columnsByTable(await db.query<{ t: string; c: string }>(COLUMNS));
    const tables = (await db.query<{ name: string }>(TABLES)).map((r) => r.name).filter((t) => oldTables.has(t));
    const source = old;
    const rows = await db.tx(async (q) => {
      // Rows go in table by table, not in reference order: the constraints hold in the source, so they are not
      // checked again here; the triggers that derive data (search vectors) would only redo what the rows hold.
      await q.query('set local session_replication_role = replica');
      let total = 0;
      for (const table of tables) {
        const shared = (newColumns.get(table) ?? []).filter((c) => oldColumns.get(table)?.includes(c));
        if (!shared.length) continue;
        const cols = shared.map((c) => pg.escapeIdentifier(c)).join(', ');
        const name = pg.escapeIdentifier(table);
        await q.query(`truncate ${name} cascade`);
        const out = await source.query<never>(`copy (select ${cols} from ${name}) to '/dev/blob'`);
        const data = out.blob ? Buffer.from(await out.blob.arrayBuffer()) : Buffer.alloc(0);
        if (data.length) total += await q.copyFrom!(`copy ${name} (${cols}) from stdin`, [data]);
      }
      // Every sequence continues after the highest value its column holds.
      const sequences = await q.query<{ seq: string; t: string; c: string }>(`-- pglite.sequences
        select pg_get_serial_sequence(quote_ident(table_name), column_name) as seq, table_name as t, column_name as c
        from information_schema.columns
        where table_schema = 'public' and pg_get_serial_sequence(quote_ident(table_name), column_name) is not null`);
      for (const { seq, t, c } of sequences) {
        const max = `select max(${pg.escapeIdentifier(c)}) from ${pg.escapeIdentifier(t)}`;
        await q.query(`select setval($1, coalesce((${max}), 0) + 1, false)`, [seq]);
      }
      return total;
    });
    await db.close();
    db = undefined;
    await cluster.stop();
    cluster = undefined;
    await old.close();
    old = undefined;
    const kept = `${pgliteDir(dataDir)}.migrated-${new Date().toISOString().slice(0, 10)}`;
    fs.renameSync(staging, clusterDir(dataDir));
    fs.renameSync(pgliteDir(dataDir), kept);
    log.info({ tables: tables.length, rows, kept }, 'earlier PGlite database migrated into the embedded PostgreSQL');
    return { tables: tables.length, rows, kept };
  } catch (err) {
    await db?.close().catch(() => undefined);
    await cluster?.stop().catch(() => undefined);
    await old?.close().catch(() => undefined);
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
}
