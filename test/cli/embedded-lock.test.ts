import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_ADMIN_PASSWORD, runCli, serveEmbedded } from '../helpers/cli';

const PASSWORD = EMBEDDED_ADMIN_PASSWORD;

const login = (url: string) =>
  fetch(`${url}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: PASSWORD }),
  });

/** Two services on one cluster would fight over it: DATA_DIR is one process's at a time. */
describe('the embedded store belongs to one process', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-lock-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = () => ({ DATA_DIR: dataDir, GAS_ADMIN_PASSWORD: PASSWORD });

  it('refuses a second gas serve on the same DATA_DIR and leaves the first one whole', async () => {
    const first = await serveEmbedded(dataDir);
    try {
      const second = await runCli(['serve'], { ...env(), HOST: '127.0.0.1', PORT: '0' });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`gas: DATA_DIR ${dataDir} is in use by another gas process (pid ${first.child.pid})`);
      // The first server still reaches its database (through the socket the second must not have removed), and the
      // CLI still finds it.
      expect((await login(first.url)).status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'embedded.json'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'postgres', '.s.PGSQL.5432'))).toBe(true);
      const listed = await runCli(['user', 'list'], env());
      expect(listed).toMatchObject({ code: 0, stdout: expect.stringContaining('admin') });
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
    }
    // Released on a clean stop.
    expect(fs.existsSync(path.join(dataDir, 'embedded.lock'))).toBe(false);
  }, 120_000);

  it('takes over a lock whose process is gone', async () => {
    fs.writeFileSync(path.join(dataDir, 'embedded.lock'), '2147483646');
    const r = await runCli(['migrate'], env());
    expect(r).toMatchObject({ code: 0 });
    expect(fs.existsSync(path.join(dataDir, 'embedded.lock'))).toBe(false);
  }, 120_000);
});
