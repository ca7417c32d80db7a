import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/**
 * `gas serve` runs with V8's allocation-site pretenuring off (src/main/v8-serving.ts): requests that pile up once
 * (the path index's first build) must not leave every later request's objects born old. Asked of V8 itself: with
 * --trace-pretenuring-statistics V8 prints a line each time it weighs its pretenuring feedback, which it does only
 * while pretenuring is on. The server's own start (modules loading) may print some before `serve` turns it off; once
 * it listens, a load of concurrent requests must print none (with pretenuring on, this load prints them).
 */
describe('gas serve and V8 pretenuring', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-v8-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('weighs no pretenuring feedback once it listens, under concurrent load', async () => {
    const root = path.join(__dirname, '..', '..');
    const child = spawn(
      process.execPath,
      ['--trace-pretenuring-statistics', '--import', 'tsx', path.join(root, 'src', 'cli.ts'), 'serve'],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          RATE_LIMIT_RPS: '1000000',
          GAS_ADMIN_PASSWORD: 'admin-password-for-v8-test',
          GAS_SECRET_KEY: 'dGVzdC1zZWNyZXQta2V5LWZvci10aGUtdGVzdHMtLS0=',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    let url: string | undefined;
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = url ? null : /"url":"(http:\/\/[^"]+)".*"msg":"graph analysis service listening"/.exec(out);
        if (m) resolve((url = m[1]!));
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out.slice(-2000)}${err}`)));
    });
    try {
      const base = await listening;
      const login = await fetch(`${base}/api/v2/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: 'admin-password-for-v8-test' }),
      });
      const jwt = ((await login.json()) as { data: { session_token: string } }).data.session_token;
      const afterListening = out.length;
      // 64 callers at once, 40 times over: enough young collections for V8 to weigh its feedback many times. Through
      // an agent of the test's own, destroyed afterwards, so no kept-alive connection outlives the test.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
      const self = () =>
        new Promise<number>((resolve, reject) =>
          http
            .get(`${base}/api/v2/self`, { agent, headers: { authorization: `Bearer ${jwt}` } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
            .on('error', reject),
        );
      const statuses = new Set<number>();
      try {
        for (let round = 0; round < 40; round++) {
          for (const s of await Promise.all(Array.from({ length: 64 }, self))) statuses.add(s);
        }
      } finally {
        agent.destroy();
      }
      expect([...statuses]).toEqual([200]);
      const weighed = out
        .slice(afterListening)
        .split('\n')
        .filter((l) => l.includes('pretenuring:'));
      expect(weighed).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      // Nothing of the child may hold this worker open once the test is done.
      child.stdout.destroy();
      child.stderr.destroy();
    }
  }, 120_000);
});
