import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `gas serve`'s requests and responses keep V8's fast properties through the whole app: a request or response in
 * dictionary mode makes every property read of express, node and our middleware a hash look-up (every request and
 * response was one until the server's constructors were subclasses; docs/decisions.md, "Serving speed"). Asked of V8 itself
 * (%HasFastProperties), so in a child process started with --allow-natives-syntax, on the embedded store, once each
 * answer is finished (every middleware has run).
 */
describe('request and response objects of the running server', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-shapes-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keep fast properties on success, on errors and for signed and JWT callers', () => {
    const script = `
      const http = require('node:http');
      // Compiled at run time: the natives syntax is not JavaScript the loader could transform.
      const fast = new Function('o', 'return %HasFastProperties(o)');
      const seen = [];
      const createServer = http.createServer;
      http.createServer = (...args) => {
        const server = createServer(...args);
        server.prependListener('request', (req, res) =>
          res.on('finish', () => seen.push({ url: req.url, status: res.statusCode, req: fast(req), res: fast(res) })),
        );
        return server;
      };
      const { startServer } = require('./src/main/server');
      const { loadConfig } = require('./src/config');
      const { createLogger } = require('./src/logger');
      (async () => {
        const config = { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir: ${JSON.stringify(dataDir)},
          adminPassword: 'admin-password-for-shapes', secretKey: 'dGVzdC1zZWNyZXQta2V5LWZvci10aGUtdGVzdHMtLS0=' };
        const running = await startServer(config, createLogger('silent'));
        try {
          const ask = (target, init) => fetch(running.url + target, init).then(async (r) => (await r.text(), r.status));
          const login = await fetch(running.url + '/api/v2/login', { method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: 'admin-password-for-shapes' }) });
          const jwt = (await login.json()).data.session_token;
          const auth = { headers: { authorization: 'Bearer ' + jwt } };
          const made = await fetch(running.url + '/api/v2/tokens', { method: 'POST',
            headers: { ...auth.headers, 'content-type': 'application/json' }, body: JSON.stringify({ token_name: 'shapes' }) });
          const token = (await made.json()).data;
          const { signRequest } = require('./src/auth/signature');
          const signed = (target) => ({ headers: signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target }) });
          const statuses = [];
          // Twice each: the second request meets the shapes V8 settled on during the first.
          for (let i = 0; i < 2; i++) {
            statuses.push(await ask('/health'));
            statuses.push(await ask('/api/v2/self', auth));
            statuses.push(await ask('/api/v2/self', signed('/api/v2/self')));
            statuses.push(await ask('/api/v2/users/S-1-5-21-0-0-0-404?counts=true', auth));
            statuses.push(await ask('/api/v2/users/S-1-5-21-0-0-0-404?counts=maybe', auth));
            statuses.push(await ask('/api/v2/self'));
            statuses.push(await ask('/api/v2/no-such-route'));
          }
          process.stdout.write(JSON.stringify({ statuses, seen }));
        } finally {
          await running.close();
        }
      })().catch((err) => { console.error(err); process.exit(1); });
    `;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '-e', script], {
      cwd: path.join(__dirname, '..', '..'),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    });
    const { statuses, seen } = JSON.parse(out) as {
      statuses: number[];
      seen: { url: string; status: number; req: boolean; res: boolean }[];
    };
    expect(statuses).toEqual([200, 200, 200, 404, 400, 401, 404, 200, 200, 200, 404, 400, 401, 404]);
    expect(seen.length).toBeGreaterThanOrEqual(16); // the login, the token and the fourteen above
    expect(seen.filter((s) => !s.req || !s.res)).toEqual([]);
  });
});
