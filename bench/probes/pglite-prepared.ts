import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { migrate } from '../../src/db/migrate';
import { Database } from '../../src/db/pool';
import { createLogger } from '../../src/logger';

/**
 * What preparing a statement saves on PGlite: a `pg` client on an in-memory PGlite's socket (migrated) runs two
 * look-ups PROBE_RUNS (500) times each, unnamed (parsed and planned every time) and named (prepared once),
 * alternated twice; prints the mean per run.
 *
 *   node --import tsx bench/probes/pglite-prepared.ts
 */
const RUNS = Number(process.env.PROBE_RUNS ?? 500);

async function main(): Promise<void> {
  const db = await PGlite.create({});
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-prepared-'));
  const server = new PGLiteSocketServer({ db, path: path.join(dir, '.s.PGSQL.5432'), maxConnections: 4 });
  await server.start();
  const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`;
  const log = createLogger('silent');
  const boot = new Database(url, { log });
  await migrate(boot, log);
  await boot.close();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const id = '00000000-0000-0000-0000-000000000001';
  const statements: Record<string, string> = {
    user: 'select id, principal_name from users where id = $1',
    permissions: `select distinct p.authority || '/' || p.name from users_roles ur join roles_permissions rp on rp.role_id = ur.role_id
                  join permissions p on p.id = rp.permission_id where ur.user_id = $1 and p.deleted_at is null`,
  };
  const out: Record<string, number[]> = {};
  for (const [k, text] of Object.entries(statements)) {
    for (const named of [false, true, false, true]) {
      const started = performance.now();
      for (let i = 0; i < RUNS; i++) await c.query(named ? { name: `probe_${k}`, text, values: [id] } : { text, values: [id] });
      (out[`${k}_${named ? 'named' : 'unnamed'}_ms`] ??= []).push(Number(((performance.now() - started) / RUNS).toFixed(3)));
    }
  }
  console.log(JSON.stringify({ runs: RUNS, ...out }));
  await c.end();
  await server.stop();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
