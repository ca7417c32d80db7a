import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli';

const ROOT = path.resolve(__dirname, '..', '..');

/** An earlier version's DATA_DIR: PGlite in DATA_DIR/pgdata, migrated, with a user and two graph nodes in it. */
function earlierDataDir(dataDir: string): void {
  const script = `
    const { PGlite } = require('@electric-sql/pglite');
    const fs = require('fs');
    const path = require('path');
    (async () => {
      const db = await PGlite.create({ dataDir: path.join(${JSON.stringify(dataDir)}, 'pgdata') });
      await db.exec('create table schema_migrations (version text primary key, applied_at timestamptz not null default now())');
      const dir = path.join('src', 'db', 'migrations');
      for (const f of fs.readdirSync(dir).filter((f) => /^\\d{4}_.*\\.sql$/.test(f)).sort()) {
        await db.exec(fs.readFileSync(path.join(dir, f), 'utf8'));
        await db.query('insert into schema_migrations (version) values ($1)', [f.replace(/\\.sql$/, '')]);
      }
      await db.exec(\`insert into users (principal_name, email_address) values ('earlier-user', 'e@example.com');
        insert into users_roles select u.id, r.id from users u, roles r where u.principal_name = 'earlier-user' and r.name = 'User';
        insert into graph_nodes (id, objectid, kind_ids, properties) values
          (40, 'S-1-5-21-1-1-1-1001', '{}', '{"name":"ALICE@EARLIER.LOCAL"}'),
          (41, 'S-1-5-21-1-1-1-1002', '{}', '{"name":"BOB@EARLIER.LOCAL"}');\`);
      await db.close();
    })().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script], { cwd: ROOT, timeout: 120_000 });
}

describe("an earlier version's PGlite DATA_DIR", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-pglite-'));
    earlierDataDir(dataDir);
  }, 180_000);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is refused at start with the command that migrates it, and left as it was', async () => {
    const r = await runCli(['serve'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('run `gas migrate-pglite` once');
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
  }, 120_000);

  it('is migrated by gas migrate-pglite: users, graph and sequences carry over, pgdata is kept aside', async () => {
    const r = await runCli(['migrate-pglite'], { DATA_DIR: dataDir });
    expect(r).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^migrated \d+ rows in \d+ tables; the earlier database is kept in .*pgdata\.migrated-/),
    });
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith('pgdata.migrated-'))).toBe(true);
    const users = await runCli(['user', 'list'], { DATA_DIR: dataDir });
    expect(users).toMatchObject({ code: 0, stdout: expect.stringContaining('earlier-user') });
    // A second run has nothing to do and says so.
    const again = await runCli(['migrate-pglite'], { DATA_DIR: dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('holds no earlier (PGlite) database');
  }, 180_000);
});
