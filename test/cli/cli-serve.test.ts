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

/**
 * Starts `gas serve` from the sources, with at most `fds` open descriptors and `preload` required first when given;
 * resolves once it says it listens.
 */
function serve(
  env: Record<string, string>,
  opts: { fds?: number; preload?: string } = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const node = [`"${process.execPath}"`, ...(opts.preload ? ['--require', `"${opts.preload}"`] : []), '--import tsx src/cli.ts serve'].join(
    ' ',
  );
  const child = spawn('bash', ['-c', `${opts.fds ? `ulimit -n ${opts.fds} && ` : ''}exec ${node}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', GAS_SECRET_KEY: TEST_SECRET_KEY, ...env },
  });
  let out = '';
  const collect = (chunk: Buffer) => (out += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return new Promise((resolve, reject) => {
    const seen = () => {
      const m = /"url":"(http:\/\/[^"]+)".*graph analysis service listening/.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`gas serve exited (${code}) before listening:\n${out}`)));
  });
}

/** Waits until `check` holds, up to `ms`. */
async function until(check: () => boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
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
    const { child, url, output } = await serve(env(0), { fds: 128 });
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

  const FAULT = path.join(ROOT, 'test', 'helpers', 'inject-fault.cjs');

  it('logs a rejected promise nobody handled and goes on serving', async () => {
    const { child, url, output } = await serve({ ...env(0), FAULT: 'reject' }, { preload: FAULT });
    try {
      expect((await fetch(`${url}/health`)).status).toBe(200); // the fault comes with the first request
      await until(() => output().includes('a promise was rejected and nothing handled it'));
      const line = output()
        .split('\n')
        .find((l) => l.includes('a promise was rejected and nothing handled it'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 50, err: { message: 'injected: a rejection nobody handles' } });
      expect(child.exitCode).toBeNull();
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 90_000);

  it.each([
    ['throw', 'injected: an exception nobody catches'],
    ['throw-string', 'injected: a string nobody catches'],
  ])(
    'ends with a structured fatal line and exit 1 on an exception nobody caught (%s)',
    async (fault, message) => {
      const { child, url, output } = await serve({ ...env(0), FAULT: fault }, { preload: FAULT });
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      await fetch(`${url}/health`).catch(() => undefined); // the fault comes with the first request
      const code = await exited;
      expect(code).toBe(1);
      const fatal = output()
        .split('\n')
        .find((l) => l.startsWith('{') && l.includes('uncaught exception; the server stops'));
      expect(fatal && JSON.parse(fatal)).toMatchObject({ level: 60, origin: 'uncaughtException', err: { message } });
      expect(output()).toContain(`gas: uncaught exception, stopping: Error: ${message}`);
    },
    90_000,
  );
});
