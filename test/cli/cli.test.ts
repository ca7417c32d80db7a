import { createTestApp, signed, type TestApp } from '../helpers/app';
import { runCli } from '../helpers/cli';

describe('gas command line', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const env = () => ({ DATABASE_URL: t.testDb.url });

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

  it('explains bad usage and bad configuration', async () => {
    expect(await runCli(['token', 'create'], env())).toMatchObject({ code: 2, stderr: expect.stringContaining('gas token create --user') });
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
