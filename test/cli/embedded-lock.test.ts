import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_SECRET_KEY } from '../helpers/app';
import { runCli } from '../helpers/cli';

const ROOT = path.resolve(__dirname, '..', '..');
const PASSWORD = 'a-long-enough-admin-password-1!';

/** `gas serve` on the embedded default (no DATABASE_URL) in `dataDir`; resolves with its URL once it listens. */
function serveEmbedded(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      GAS_SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      GAS_ADMIN_PASSWORD: PASSWORD,
    },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:\/\/[^"]+)".*graph analysis service listening/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`gas serve exited (${code}) before listening:\n${out}`)));
  });
}

const login = (url: string) =>
  fetch(`${url}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: PASSWORD }),
  });

/** Two PGlite instances on one directory corrupt it: DATA_DIR is one process's at a time. */
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
      expect(fs.existsSync(path.join(dataDir, 'run', '.s.PGSQL.5432'))).toBe(true);
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
