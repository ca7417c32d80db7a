import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { keyFilePath } from '../../src/auth/secret-box';
import { runCli } from '../helpers/cli';
import { apiToken, createTestApp, login, signed, type TestApp } from '../helpers/app';

/** Items 9.12 (gas user …), 9.8 (gas secrets rotate) and 9.9 (embedded store on a private unix socket). */
describe('gas user / gas secrets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ secretKey: undefined }); // the server key lives in DATA_DIR's key file, shared with the CLI
  });
  afterAll(() => t.close());
  const env = () => ({ DATABASE_URL: t.testDb.url, DATA_DIR: t.config.dataDir, GAS_SECRET_KEY: '' });

  it('passwd, disable, enable, list, end-sessions, delete', async () => {
    expect((await runCli(['user', 'create', 'gina', '--role', 'User', '--password', 'a-long-cli-password'], env())).code).toBe(0);
    const jwt = await login(t.app, 'gina', 'a-long-cli-password');
    const pw = await runCli(['user', 'passwd', 'gina'], { ...env(), GAS_USER_PASSWORD: 'another-cli-password' });
    expect(pw.code).toBe(0);
    expect((await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`)).status).toBe(401);
    await login(t.app, 'gina', 'another-cli-password');
    expect((await runCli(['user', 'disable', 'gina'], env())).code).toBe(0);
    await expect(login(t.app, 'gina', 'another-cli-password')).rejects.toThrow(/401/);
    const list = await runCli(['user', 'list'], env());
    const rows = list.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.find((r) => r.principal_name === 'gina')).toMatchObject({ is_disabled: true, roles: ['User'] });
    expect((await runCli(['user', 'enable', 'gina'], env())).code).toBe(0);
    await login(t.app, 'gina', 'another-cli-password');
    expect(JSON.parse((await runCli(['user', 'end-sessions', 'gina'], env())).stdout)).toEqual({
      principal_name: 'gina',
      sessions_ended: 1,
    });
    expect((await runCli(['user', 'delete', 'gina'], env())).code).toBe(0);
    expect(await runCli(['user', 'passwd'], env())).toMatchObject({ code: 2, stderr: expect.stringContaining('gas user passwd') });
  }, 120_000);

  it('secrets rotate: a new key first in the key file, rows re-sealed, tokens and sessions still work; --prune keeps one key', async () => {
    const jwt = await login(t.app);
    const token = await apiToken(t.app, jwt);
    const before = fs.readFileSync(keyFilePath(t.config.dataDir), 'utf8').trim();
    const res = await runCli(['secrets', 'rotate'], env());
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ resealed: expect.any(Number), unreadable: 0, pruned: false });
    expect(result.resealed).toBeGreaterThanOrEqual(2);
    const lines = fs.readFileSync(keyFilePath(t.config.dataDir), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(before);
    expect((await signed(t.app, token, 'GET', '/api/v2/permissions/1')).status).toBe(200);
    expect((await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`)).status).toBe(200);
    const pruned = JSON.parse((await runCli(['secrets', 'rotate', '--prune'], env())).stdout);
    expect(pruned.pruned).toBe(true);
    expect(fs.readFileSync(keyFilePath(t.config.dataDir), 'utf8').trim().split('\n')).toHaveLength(1);
    expect((await signed(t.app, token, 'GET', '/api/v2/permissions/1')).status).toBe(200);
    expect(fs.statSync(keyFilePath(t.config.dataDir)).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('the embedded store listens on a unix socket in a 0700 directory, not on TCP', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-emb-'));
    try {
      // In a plain Node process, as `gas serve` runs it: a small script reports where it listened.
      const script = `
        const { startEmbedded } = require('./src/db/embedded');
        const { createLogger } = require('./src/logger');
        const fs = require('fs');
        (async () => {
          const e = await startEmbedded(${JSON.stringify(dir)}, createLogger('silent'));
          const run = ${JSON.stringify(path.join(dir, 'postgres'))};
          const st = fs.statSync(run);
          const sock = fs.statSync(run + '/.s.PGSQL.5432');
          const conf = fs.readFileSync(run + '/postmaster.pid', 'utf8').split('\\n');
          process.stdout.write(JSON.stringify({ url: e.url, dirMode: (st.mode & 0o777).toString(8), socket: sock.isSocket(), sockMode: (sock.mode & 0o777).toString(8), listen: conf[5] }));
          await e.stop();
        })();`;
      const outText = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: path.resolve(__dirname, '..', '..'),
        timeout: 60_000,
      }).toString();
      const info = JSON.parse(outText);
      expect(info).toEqual({ url: expect.stringContaining('?host='), dirMode: '700', socket: true, sockMode: '700', listen: '' });
      expect(info.url).not.toMatch(/127\.0\.0\.1|:\d+\//);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
