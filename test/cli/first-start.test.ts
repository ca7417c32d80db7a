import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEST_SECRET_KEY } from '../helpers/app';
import { runCli } from '../helpers/cli';

const ROOT = path.resolve(__dirname, '..', '..');

/** `gas serve` with a generated admin password; resolves with everything it printed once it listens. */
function serveFresh(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      GAS_SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
    },
  });
  let out = '';
  let listening = false;
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      if (!listening && /graph analysis service listening/.test(out)) {
        listening = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => (listening ? resolve(out) : reject(new Error(`gas serve exited (${code}) before listening:\n${out}`))));
  });
}

/** A first start that cannot serve leaves nothing behind: the start that does serve is the one that prints the password. */
describe('the first start', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-first-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the generated admin password only on the start that listens', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const failed = await runCli(['serve'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(failed.stderr).not.toContain('Created user');
    } finally {
      taken.close();
    }
    const out = await serveFresh(dataDir);
    expect(out).toMatch(/Created user "admin" \(Administrator\) with password: \S{12,}/);
    // The password comes before the service says it listens: whoever reads "listening" can log in with it.
    expect(out.indexOf('Created user')).toBeLessThan(out.indexOf('graph analysis service listening'));
  }, 120_000);

  it('refuses a HOST that is no address or host name with the other settings, before anything starts', async () => {
    const r = await runCli(['serve'], { DATA_DIR: path.join(dataDir, 'never'), HOST: '999.1.1.1', PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HOST.*must be an IP address of this machine or a host name/);
    expect(fs.existsSync(path.join(dataDir, 'never'))).toBe(false);
  }, 60_000);
});
