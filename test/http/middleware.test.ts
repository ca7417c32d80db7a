import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import pg from 'pg';
import request from 'supertest';
import { createTestApp, expectWrapper, login, useTestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';

describe('error wrapper and middleware', () => {
  const t = useTestApp({ maxJsonBodyBytes: 64 * 1024 });

  it('gives every response a RequestID and security headers', async () => {
    const res = await request(t.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', edition: 'enterprise', storage: expect.stringMatching(/^(embedded|postgres)$/) });
    expect(res.headers.requestid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers a REST route in JSON with its length, and HEAD with the same headers and no body', async () => {
    const get = await request(t.app).get('/api/v2/permissions/1').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(get.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(get.body)));
    const head = await request(t.app).head('/api/v2/permissions/1').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('answers unknown routes and methods with 404 in the wrapper', async () => {
    expect(expectWrapper(await request(t.app).get('/api/v2/no-such-thing'), 404).context).toBe('router');
    expectWrapper(await request(t.app).patch('/api/v2/permissions/1'), 404);
    expectWrapper(await request(t.app).get('/no-such-page'), 404);
  });

  it('sends a browser at / to the web app', async () => {
    const res = await request(t.app).get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/ui/');
  });

  it('answers malformed JSON with 400 and a position', async () => {
    const res = await request(t.app)
      .post('/api/v2/tokens')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .set('Content-Type', 'application/json')
      .send('{"token_name": "x",}');
    const err = expectWrapper(res, 400);
    expect(err).toEqual({
      context: 'middleware',
      message: expect.stringMatching(/^The JSON payload could not be unmarshalled\. .*position/),
    });
  });

  it('reads a chunked JSON body (Transfer-Encoding, no Content-Length) and a GET with no body at all', async () => {
    const server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const send = (method: string, path: string, chunks: string[]) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method,
              path,
              headers: { authorization: `Bearer ${t.adminJwt}`, 'content-type': 'application/json' },
            },
            (res) => {
              let body = '';
              res.on('data', (d) => (body += d));
              res.on('end', () => resolve({ status: res.statusCode!, body }));
            },
          );
          req.on('error', reject);
          for (const c of chunks) req.write(c);
          req.end();
        });
      const created = await send('POST', '/api/v2/tokens', ['{"token_na', 'me": "chunked"}']);
      expect(created.status).toBe(200);
      expect(JSON.parse(created.body).data.name).toEqual({ string: 'chunked', valid: true });
      const malformed = await send('POST', '/api/v2/tokens', ['{"token_name": ', '}']);
      expect(malformed.status).toBe(400);
      expect((await send('GET', '/api/v2/permissions/1', [])).status).toBe(200);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('answers a body over the limit with 413, declared or streamed', async () => {
    const big = JSON.stringify({ token_name: 'x'.repeat(70 * 1024) });
    expectWrapper(
      await request(t.app)
        .post('/api/v2/tokens')
        .set('Authorization', `Bearer ${t.adminJwt}`)
        .set('Content-Type', 'application/json')
        .send(big),
      413,
    );
  });

  /** Creates a token (as the admin) from a gzip-encoded JSON body. */
  const postGzipToken = (gz: Buffer) =>
    request(t.app)
      .post('/api/v2/tokens')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((b: unknown) => b as string)
      .send(gz);

  it('answers a gzip bomb with 413 (the limit holds after decompression)', async () => {
    const bomb = zlib.gzipSync(Buffer.from(JSON.stringify({ token_name: 'y'.repeat(1024 * 1024) })));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await postGzipToken(bomb);
    expect(expectWrapper(res, 413).message).toMatch(/decompressed/);
  });

  it('accepts a gzip-encoded JSON body', async () => {
    const body = zlib.gzipSync(Buffer.from(JSON.stringify({ token_name: 'zipped' })));
    const res = await postGzipToken(body);
    expect(res.status).toBe(200);
    expect(res.body.data.name.string).toBe('zipped');
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await request(t.app).post('/api/v2/login').set('Content-Type', 'text/plain').send('username=admin');
    expect(expectWrapper(res, 415).message).toMatch(/must be JSON/);
  });

  it('answers an unexpected failure with a plain 500 that shows no internals', async () => {
    const broken = await createTestApp();
    try {
      const brokenJwt = await login(broken.app);
      await broken.testDb.db.query('drop table permissions cascade');
      const err = expectWrapper(await request(broken.app).get('/api/v2/permissions/1').set('Authorization', `Bearer ${brokenJwt}`), 500);
      expect(err.message).toBe('The request could not be handled due to an unexpected database error.');
      expect(JSON.stringify(err)).not.toMatch(/relation|permissions"|select|stack/i);
    } finally {
      await broken.close();
    }
  });
});

describe('rate limiting', () => {
  const t = useTestApp({ rateLimitRps: 3 });

  it('answers 429 in the wrapper with Retry-After, per client and route', async () => {
    const statuses: number[] = [];
    let limited: request.Response | undefined;
    for (let i = 0; i < 6; i++) {
      const res = await request(t.app).get('/api/v2/permissions/1');
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const err = expectWrapper(limited!, 429);
    expect(err).toEqual({ context: 'middleware', message: 'Too many requests. Please try again later.' });
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.ratelimit).toMatch(/^limit=3, remaining=0, reset=[1-9]\d*$/);
    expect(limited!.headers['ratelimit-policy']).toBe('3;w=1');
    // Another route has its own counter.
    expect((await request(t.app).get('/api/v2/self')).status).toBe(401);
  });

  it('counts by the socket peer unless TRUST_PROXY names the proxy: X-Forwarded-For cannot dodge the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await request(t.app).get('/api/v2/permissions/2').set('X-Forwarded-For', `203.0.113.${i}`)).status);
    expect(statuses).toContain(429);
  });
});

describe('rate limiting behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  const t = useTestApp({ rateLimitRps: 3, trustProxy: ['loopback'] });

  it('counts each client the proxy names', async () => {
    const one = async (ip: string) => (await request(t.app).get('/api/v2/permissions/1').set('X-Forwarded-For', ip)).status;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await one(`203.0.113.${i}`));
    expect(statuses.every((s) => s !== 429)).toBe(true);
    const same: number[] = [];
    for (let i = 0; i < 6; i++) same.push(await one('198.51.100.7'));
    expect(same).toContain(429);
  });
});

describe('Prefer: wait', () => {
  const t = useTestApp();
  const get = () => request(t.app).get('/api/v2/permissions/1').set('Authorization', `Bearer ${t.adminJwt}`);

  it('applies wait=N and says so', async () => {
    const res = await get().set('Prefer', 'wait=5');
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=5');
  });

  it('treats wait=0 as no preference', async () => {
    const res = await get().set('Prefer', 'wait=0');
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBeUndefined();
  });

  it.each(['wait=abc', 'wait=-2', '60', 'wait=5, respond-async', 'wait = 5'])('answers 400 for Prefer: %s', async (value) => {
    expect(expectWrapper(await get().set('Prefer', value), 400)).toEqual({
      context: 'middleware',
      message: expect.stringMatching(/^Prefer header has an invalid value/),
    });
  });

  it('refuses wait=-1 unless the bypass is enabled', async () => {
    expect(expectWrapper(await get().set('Prefer', 'wait=-1'), 400).message).toMatch(/not enabled/);
    const open = await createTestApp({ allowTimeoutBypass: true });
    try {
      const res = await request(open.app)
        .get('/api/v2/permissions/1')
        .set('Authorization', `Bearer ${await login(open.app)}`)
        .set('Prefer', 'wait=-1');
      expect(res.status).toBe(200);
      expect(res.headers['preference-applied']).toBe('wait=-1');
    } finally {
      await open.close();
    }
  });

  it('answers 504 when a statement outlives the deadline, and cancels it', async () => {
    const blocker = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query(`lock table ${t.testDb.schema}.permissions in access exclusive mode`);
      const started = Date.now();
      const res = await get().set('Prefer', 'wait=1');
      const elapsed = Date.now() - started;
      expect(expectWrapper(res, 504).message).toMatch(/deadline/);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      {
        // The server cancelled the blocked statement instead of leaving it queued behind the lock (which it would be
        // until the rollback below).
        await eventually(
          async () =>
            (
              await blocker.query(
                `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%permissions%' and pid <> pg_backend_pid()`,
              )
            ).rows[0].n === 0,
          'the blocked statement cancelled',
        );
      }
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    // The service is healthy afterwards.
    expect((await get()).status).toBe(200);
  });
});

describe('GraphQL endpoint', () => {
  const t = useTestApp();
  const gql = (query: string, variables?: object) => request(t.app).post('/graphql').send({ query, variables });

  it('runs queries as the authenticated caller', async () => {
    const res = await gql('{ self { principalName roles { name } } permission(id: 19) { authority name } }').set(
      'Authorization',
      `Bearer ${t.adminJwt}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { self: { principalName: 'admin', roles: [{ name: 'Administrator' }] }, permission: { authority: 'graphdb', name: 'Read' } },
    });
  });

  it('refuses guarded fields without a caller, with a code and the HTTP status', async () => {
    const res = await gql('{ self { id } }');
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED', context: 'query' } });
  });

  it('serves public fields and mutations without a caller', async () => {
    expect((await gql('{ health { status } }')).body).toEqual({ data: { health: { status: 'ok' } } });
    const res = await gql('mutation($i: LoginInput!) { login(input: $i) { userId sessionToken } }', {
      i: { loginMethod: 'secret', username: 'admin', secret: 'admin-password-for-tests' },
    });
    expect(res.body.data.login.sessionToken).toEqual(expect.any(String));
  });

  it('reports a missing permission as FORBIDDEN', async () => {
    const uploader = await t.services.identity.createUser({ principalName: 'up', password: 'a-long-test-password', role: 'Upload-Only' });
    const upJwt = await login(t.app, uploader.principalName, 'a-long-test-password');
    const res = await gql('{ permissions { id } }').set('Authorization', `Bearer ${upJwt}`);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('serves a GraphiQL page with no external scripts or styles', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/graphiql/i);
    expect(res.text).not.toMatch(/<script[^>]+src=["']https?:/i);
    expect(res.text).not.toMatch(/<link[^>]+href=["']https?:/i);
  });
});
