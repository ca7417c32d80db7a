import type { Express } from 'express';
import request from 'supertest';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import type { Logger } from '../../src/logger';
import { compose } from '../../src/main/compose-app';
import type { Infra } from '../../src/main/compose';
import type { Services } from '../../src/services/index';
import { signRequest } from '../../src/auth/signature';
import { createHttpServer } from '../../src/http/http-server';
import { createTestDb, embedded, testLog, type TestDb } from './db';

/** The server key of every test app and CLI run (GAS_SECRET_KEY); tests of the key file override it. */
export const TEST_SECRET_KEY = 'dGVzdC1zZWNyZXQta2V5LWZvci10aGUtdGVzdHMtLS0=';

export const ADMIN_PASSWORD = 'admin-password-for-tests';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'gas-test-')),
    // Every app and CLI run of a test shares the database, so they share the key that seals its secrets.
    secretKey: TEST_SECRET_KEY,
    adminPassword: ADMIN_PASSWORD,
    rateLimitRps: 10_000,
    rootUrl: 'http://gas.test',
    logLevel: 'silent',
    maxJsonBodyBytes: 1024 * 1024,
    maxUploadBytes: 64 * 1024 * 1024,
    collectorsDir: '/nonexistent',
    // Background work runs when a test asks for it (kicks, drain()), never on a timer.
    datapipePollMs: 0,
    schedulerPollMs: 0,
    indexCheckMs: 0,
    ...overrides,
  };
}

/** A settable clock, so tests can move time (JWT expiry, signature windows) without waiting. */
export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestApp {
  app: Express;
  services: Services;
  /** The graph store and index under the services, for tests that seed or inspect the graph directly. */
  infra: Infra;
  config: Config;
  clock: TestClock;
  testDb: TestDb;
  close(): Promise<void>;
}

/** The real stack on a fresh schema: migrations, services, the express app with REST and GraphQL. */
export async function createTestApp(overrides: Partial<Config> = {}, opts: { log?: Logger } = {}): Promise<TestApp> {
  const testDb = await createTestDb();
  const config = testConfig(overrides);
  const clock = new TestClock();
  const log = opts.log ?? testLog();
  const { services, infra, app, stop } = await compose({
    db: testDb.db,
    config,
    log,
    clock: clock.now,
    storage: embedded() ? 'embedded' : 'postgres',
  });
  await services.identity.ensureAdmin(ADMIN_PASSWORD);
  return {
    app,
    services,
    infra,
    config,
    clock,
    testDb,
    async close() {
      await stop();
      await testDb.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the real endpoint and returns the session JWT. */
export async function login(app: Express, username = 'admin', secret = ADMIN_PASSWORD): Promise<string> {
  const res = await request(app).post('/api/v2/login').send({ login_method: 'secret', username, secret });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.session_token;
}

/** Creates a user with a role and returns a JWT for them. */
export async function userWithRole(
  t: TestApp,
  role: string,
  name = `${role.toLowerCase().replace(/\W/g, '')}-${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ id: string; name: string; jwt: string }> {
  const password = 'a-long-test-password';
  const user = await t.services.identity.createUser({ principalName: name, password, role });
  return { id: user.id, name, jwt: await login(t.app, name, password) };
}

export interface ApiToken {
  id: string;
  key: string;
}

/**
 * Sends a signed request exactly as a collector does: the signature covers the method, the request target as
 * sent (path and query), the RequestDate hour and the body bytes.
 */
export function signed(
  app: Express,
  token: ApiToken,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  target: string,
  body?: unknown,
  opts: { date?: Date; contentType?: string } = {},
) {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method, target, body: payload, date: opts.date });
  let req = request(app)[method.toLowerCase() as 'get'](target).set(headers);
  if (payload !== undefined)
    req = req
      .set('Content-Type', opts.contentType ?? 'application/json')
      .serialize((b: unknown) => b as string)
      .send(payload);
  return req;
}

/** JSON POSTs to `path` as the admin (session JWT): one function for a test that sends many bodies to a route. */
export const adminPost =
  (t: TestApp & { adminJwt: string }, path: string) =>
  (body: unknown): request.Test =>
    request(t.app)
      .post(path)
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send(body as object);

/** Issues an API token for the admin (or the given user) through the REST endpoint. */
export async function apiToken(app: Express, jwt: string, name = 'test token'): Promise<ApiToken> {
  const res = await request(app).post('/api/v2/tokens').set('Authorization', `Bearer ${jwt}`).send({ token_name: name });
  if (res.status !== 200) throw new Error(`token create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, key: res.body.data.key };
}

/** Asserts the API document's error wrapper and returns its first error. */
export function expectWrapper(res: request.Response, status: number): { context: string; message: string } {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    http_status: status,
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
    request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    errors: [{ context: expect.any(String), message: expect.any(String) }],
  });
  expect(res.headers.requestid).toBe(res.body.request_id);
  return res.body.errors[0];
}

/**
 * Registers beforeAll/afterAll for a test app on a fresh schema, with an admin JWT. The returned object is
 * filled in by beforeAll, so read its fields inside tests only.
 */
export function useTestApp(overrides: Partial<Config> = {}, opts: { log?: Logger } = {}): TestApp & { adminJwt: string } {
  const holder = {} as TestApp & { adminJwt: string };
  beforeAll(async () => {
    Object.assign(holder, await createTestApp(overrides, opts));
    holder.adminJwt = await login(holder.app);
  });
  afterAll(() => holder.close());
  return holder;
}

/**
 * Serves the test app on a free port for the file's tests (from beforeAll to afterAll), for tests that write raw
 * HTTP: bodies cut short, declared lengths never sent. Read `port` inside tests only.
 */
export function useListening(t: TestApp): { port: number } {
  const out = { port: 0 };
  let server: http.Server;
  beforeAll(async () => {
    server = createHttpServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    out.port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  return out;
}

/** How many upload files sit in the app's staging folder (an upload streams there; a refused one leaves none). */
export function stagedUploads(t: TestApp): number {
  const incoming = path.join(t.config.dataDir, 'uploads', 'incoming');
  return fs.existsSync(incoming) ? fs.readdirSync(incoming).length : 0;
}
