import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, signed, type TestApp } from '../helpers/app';
import { ROLES } from '../../src/cli/program';
import { runCli } from '../helpers/cli';
import { TESTLAB } from '../helpers/fixtures';

describe('gas command line', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // The CLI must use the server's key (DATA_DIR/secret.key) to seal tokens the app can open.
  const env = () => ({ DATABASE_URL: t.testDb.url, DATA_DIR: t.config.dataDir });

  it('migrate is idempotent', async () => {
    const res = await runCli(['migrate'], env());
    expect(res).toMatchObject({ code: 0, stdout: 'database is up to date\n' });
  });

  it('creates a user and issues a token that signs requests', async () => {
    const user = await runCli(['user', 'create', 'collector-admin', '--role', 'Power User', '--password', 'a-long-cli-password'], env());
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toEqual({ id: expect.any(String), principal_name: 'collector-admin', role: 'Power User' });

    const res = await runCli(['token', 'create', '--user', 'collector-admin', '--name', 'sharphound', '--json'], env());
    expect(res.code).toBe(0);
    const token = JSON.parse(res.stdout);
    expect(token).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: expect.any(String), user_id: JSON.parse(user.stdout).id });
    const call = await signed(t.app, token, 'GET', '/api/v2/self');
    expect(call.status).toBe(200);
    expect(call.body.data.principal_name).toBe('collector-admin');
  }, 60_000);

  it('generates SharpHound files, ingests a directory of them and analyses', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-gen-'));
    try {
      const gen = await runCli(['generate', '--users', '40', '--out', dir, '--json'], env());
      expect(gen.code).toBe(0);
      const generated = JSON.parse(gen.stdout);
      expect(generated).toMatchObject({ files: expect.arrayContaining([path.join(dir, 'users.json')]) });
      const res = await runCli(['ingest', dir, '--json'], env());
      expect(res.code).toBe(0);
      const lines = res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(
        lines
          .filter((l) => l.file)
          .map((l) => l.type)
          .sort(),
      ).toEqual([
        'aiacas',
        'certtemplates',
        'computers',
        'domains',
        'enterprisecas',
        'gpos',
        'groups',
        'ntauthstores',
        'ous',
        'rootcas',
        'users',
      ]);
      // Users, computers and groups first (fewer placeholders to rewrite), the rest as the directory lists them.
      expect(lines.filter((l) => l.file).map((l) => l.type)).toEqual([
        'users',
        'computers',
        'groups',
        ...lines
          .filter((l) => l.file && !['users', 'computers', 'groups'].includes(l.type))
          .map((l) => path.basename(l.file, '.json'))
          .sort(),
      ]);
      expect(lines.find((l) => l.type === 'users')).toMatchObject({ objects: 40 });
      // Every object the generator wrote is ingested.
      expect(lines.filter((l) => l.file).reduce((n, l) => n + l.objects, 0)).toBe(generated.objects);
      expect(lines.at(-1).analysis).toMatchObject({
        edges: expect.objectContaining({ AdminTo: expect.any(Number) }),
        tierZero: expect.any(Number),
      });
      const users = await t.testDb.db.query<{ n: number }>(
        `select count(*)::int as n from graph_nodes where objectid like 'S-1-5-21-1000000001-2000000002-3000000003-1%'`,
      );
      expect(users[0]!.n).toBe(40);
      // A broken file is reported by name and the exit code says so.
      fs.writeFileSync(path.join(dir, 'broken.json'), '{"meta": {"type": "users"}, "data": [');
      const bad = await runCli(['ingest', path.join(dir, 'broken.json'), '--no-analysis'], env());
      expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/broken\.json: malformed JSON/) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('reports each file in a table and the analysis after it; progress on stderr', async () => {
    const res = await runCli(['ingest', path.join(TESTLAB, 'users.json'), path.join(TESTLAB, 'groups.json')], env());
    expect(res.code).toBe(0);
    const out = res.stdout.split('\n');
    expect(out[0]).toMatch(/^file +type +objects +nodes +edges +skipped +unknown +seconds$/);
    expect(out[2]).toMatch(/^users\.json +users +\d+ +[\d,]+ +[\d,]+ +0 +0 +[\d.]+$/);
    expect(out[3]).toMatch(/^groups\.json +groups +\d+/);
    expect(res.stdout).toMatch(/\nanalysis: [\d,]+ derived edges, \d+ nodes in Tier Zero, [\d.]+ s\nderived edge +count\n/);
    // Not a terminal: a line per file as it ends (and one every few seconds on long ones).
    expect(res.stderr).toMatch(/^ingest users\.json: [\d,]+ objects, [\d,]+ edges, [\d.]+ s$/m);
    expect(res.stderr).toMatch(/^analysis: [\d,]+ derived edges, \d+ in Tier Zero, [\d.]+ s$/m);
  }, 60_000);

  it('offers exactly the roles the database holds', async () => {
    const roles = await t.testDb.db.query<{ name: string }>('select name from roles order by id');
    expect(roles.map((r) => r.name)).toEqual([...ROLES]);
  });

  it('explains bad usage and bad configuration', async () => {
    expect(await runCli(['token', 'create'], env())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("required option '--user <name>'"),
    });
    expect(await runCli(['frobnicate'], env())).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command') });
    const bad = await runCli(['migrate'], { ...env(), EDITION: 'gold', RATE_LIMIT_RPS: '-3' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/EDITION/);
    expect(bad.stderr).toMatch(/RATE_LIMIT_RPS/);
    expect(await runCli(['token', 'create', '--user', 'nobody'], env())).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No user named "nobody"'),
    });
  }, 60_000);
});
