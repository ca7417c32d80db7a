import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app';
import { runCli } from '../helpers/cli';
import { sharphound } from '../helpers/upload';

/** `gas ingest` and a running server never write the graph at once: the CLI takes the data pipeline's lock. */
describe('gas ingest and the data pipeline lock', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-lock-'));
    const user = { ObjectIdentifier: 'S-1-5-21-7-1001', Properties: { name: 'LOCK@X.LOCAL', domain: 'X.LOCAL' }, Aces: [] };
    fs.writeFileSync(path.join(dir, 'users.json'), sharphound('users', [user]));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });
  // The test app's DATA_DIR holds the key its stored secrets are sealed with.
  const env = () => ({ DATABASE_URL: t.testDb.url, DATA_DIR: t.config.dataDir });
  const hold = () => t.testDb.db.query(`update datapipe_state set status = 'ingesting', worker = 'a-live-server', heartbeat_at = now()`);
  const free = () => t.testDb.db.query(`update datapipe_state set status = 'idle', worker = null`);

  it('refuses while a server holds the lock, waits for it with --wait, and releases it afterwards', async () => {
    await hold();
    const busy = await runCli(['ingest', dir, '--no-analysis'], env());
    expect(busy).toMatchObject({ code: 1, stderr: expect.stringMatching(/data pipeline is busy/) });
    const count = async () =>
      (await t.testDb.db.query<{ n: number }>(`select count(*)::int as n from graph_nodes where objectid = 'S-1-5-21-7-1001'`))[0]!.n;
    expect(await count()).toBe(0);

    const waiting = runCli(['ingest', dir, '--no-analysis', '--wait'], env());
    await new Promise((r) => setTimeout(r, 1500));
    expect(await count()).toBe(0);
    await free();
    expect(await waiting).toMatchObject({ code: 0 });
    expect(await count()).toBe(1);
    expect((await t.services.datapipe.status()).status).toBe('idle');
  }, 90_000);
});
