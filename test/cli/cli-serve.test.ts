import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEST_SECRET_KEY } from '../helpers/app';
import { runCli } from '../helpers/cli';
import { createTestDb, type TestDb } from '../helpers/db';

const ROOT = path.resolve(__dirname, '..', '..');

/** A port something else already listens on. */
async function occupiedPort(): Promise<{ port: number; close(): Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => holder.close(() => resolve())) };
}

/** Starts `gas serve` from the sources with at most `fds` open descriptors; resolves once it says it listens. */
function serveWithFewDescriptors(
  env: Record<string, string>,
  fds: number,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('bash', ['-c', `ulimit -n ${fds} && exec "${process.execPath}" --import tsx src/cli.ts serve`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', GAS_SECRET_KEY: TEST_SECRET_KEY, ...env },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)".*graph analysis service listening/.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`gas serve exited (${code}) before listening:\n${out}`)));
  });
}

describe('gas serve: start-up and connection floods', () => {
  let testDb: TestDb;
  let dataDir: string;
  beforeAll(async () => {
    testDb = await createTestDb();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-serve-'));
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await testDb.drop();
  });
  const env = (port: number) => ({
    DATABASE_URL: testDb.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    GAS_ADMIN_PASSWORD: 'a-long-enough-admin-password-1!',
  });

  it('says which address is in use and exits 1, without a stack trace, when the port is taken', async () => {
    const holder = await occupiedPort();
    try {
      const r = await runCli(['serve'], { ...env(holder.port), LOG_LEVEL: 'info' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`gas: cannot listen on 127.0.0.1:${holder.port}: the address is already in use`);
      expect(r.stderr).toContain('[EADDRINUSE]');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await holder.close();
    }
  }, 90_000);

  it('keeps serving after more connections arrive than it has descriptors for', async () => {
    const { child, url, output } = await serveWithFewDescriptors(env(0), 128);
    try {
      const { port } = new URL(url);
      const flood: net.Socket[] = [];
      for (let i = 0; i < 400; i++) {
        const s = net.connect(Number(port), '127.0.0.1');
        s.on('error', () => undefined);
        flood.push(s);
      }
      await new Promise((r) => setTimeout(r, 1000));
      for (const s of flood) s.destroy();
      await new Promise((r) => setTimeout(r, 500));
      expect(child.exitCode).toBeNull();
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok' });
      expect(output()).not.toMatch(/uncaught|unhandled/i);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 90_000);
});
