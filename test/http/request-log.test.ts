import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { buildApp } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { compose } from '../../src/main/compose-app';
import { testConfig } from '../helpers/app';
import { createTestDb, type TestDb } from '../helpers/db';
import { logSink } from '../helpers/log-sink';
import { eventually } from '../helpers/eventually';

/** The access log line of each request, and the security headers every response carries. */
describe('request log and security headers', () => {
  let testDb: TestDb;
  let app: ReturnType<typeof buildApp>;
  let stop: () => Promise<void>;
  const { stream: sink, lines } = logSink();
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, any>).filter((e) => e.msg?.startsWith('request '));

  beforeAll(async () => {
    testDb = await createTestDb();
    const log = createLogger('info', sink);
    const composed = await compose({ db: testDb.db, config: testConfig(), log, clock: () => new Date(), storage: 'test' });
    ({ app, stop } = composed);
  });
  afterAll(async () => {
    await stop();
    await testDb.drop();
  });

  it('sets exactly the headers helmet sets, with its values', async () => {
    const reference = express();
    reference.disable('x-powered-by');
    reference.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
    reference.get('/', (_req, res) => res.json({}));
    const expected = (await request(reference).get('/')).headers;
    const res = await request(app).get('/health');
    const helmetNames = Object.keys(expected).filter((h) => !['content-type', 'content-length', 'date', 'connection', 'etag'].includes(h));
    expect(helmetNames.length).toBeGreaterThanOrEqual(10);
    for (const name of helmetNames) expect([name, res.headers[name]]).toEqual([name, expected[name]]);
    // An error answer carries them too.
    expect((await request(app).get('/api/v2/nowhere')).headers['x-frame-options']).toBe(expected['x-frame-options']);
  });

  it('writes one line per request with the status and only the allowlisted response headers', async () => {
    lines.length = 0;
    const res = await request(app).get('/health').expect(200);
    await new Promise((r) => setImmediate(r));
    const [line, ...rest] = entries();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: res.headers.requestid,
      req: { method: 'GET', url: '/health' },
      res: { statusCode: 200, headers: { 'content-type': res.headers['content-type'], 'content-length': res.headers['content-length'] } },
    });
    expect(Object.keys(line!.res.headers).sort()).toEqual(['content-length', 'content-type']);
    expect(typeof line!.responseTime).toBe('number');
  });

  it('logs a request whose client went away before the answer as aborted, once', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    try {
      lines.length = 0;
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise<void>((r) => socket.once('connect', () => r()));
      // A JSON body announced at 1,000 bytes, 10 sent, then the connection closed: no answer can be finished.
      socket.write('POST /api/v2/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"login_me');
      await new Promise((r) => setTimeout(r, 50));
      socket.destroy();
      await eventually(() => entries().length > 0, 'the aborted request logged');
      await new Promise((r) => setTimeout(r, 50));
      const logged = entries();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ msg: 'request aborted', req: { method: 'POST', url: '/api/v2/login' } });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
