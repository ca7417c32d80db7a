import request from 'supertest';
import { buildApp } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { compose } from '../../src/main/compose-app';
import { ADMIN_PASSWORD, apiToken, login, signed, testConfig } from '../helpers/app';
import { createTestDb, type TestDb } from '../helpers/db';
import { logSink } from '../helpers/log-sink';

/** Item 9.7: credentials never reach the log, at any level; RequestDate stays for clock diagnosis. */
describe('log redaction', () => {
  let testDb: TestDb;
  let app: ReturnType<typeof buildApp>;
  let stop: () => Promise<void>;
  const { stream: sink, lines } = logSink();

  beforeAll(async () => {
    testDb = await createTestDb();
    const log = createLogger('trace', sink);
    const config = testConfig({ logLevel: 'trace' });
    const composed = await compose({ db: testDb.db, config, log, clock: () => new Date(), storage: 'test' });
    await composed.services.identity.ensureAdmin(ADMIN_PASSWORD);
    ({ app, stop } = composed);
  });
  afterAll(async () => {
    await stop();
    await testDb.drop();
  });

  it('redacts Authorization, Signature, cookies, Set-Cookie and secret query values from every line', async () => {
    const jwt = await login(app);
    const token = await apiToken(app, jwt);
    lines.length = 0;
    await request(app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`).set('Cookie', 'session=cookie-secret-value').expect(200);
    const res = await signed(app, token, 'GET', '/api/v2/permissions/1');
    expect(res.status).toBe(200);
    await request(app)
      .get('/api/v2/self?token=query-secret-1&session_token=query-secret-2&sort_by=name')
      .set('Authorization', `Bearer ${jwt}`);
    await request(app).get('/api/v2/nowhere?SAMLResponse=query-secret-3&%zz=1');
    await request(app).post('/api/v2/login').send({ login_method: 'secret', username: 'admin', secret: 'wrong-password-secret' });
    const text = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const secret of [
      jwt,
      jwt.split('.')[2]!,
      token.key,
      res.request.getHeader('Signature') as string,
      'cookie-secret-value',
      'query-secret-1',
      'query-secret-2',
      'query-secret-3',
      'wrong-password-secret',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[Redacted]');
    expect(text).toContain('sort_by=name');
    // RequestDate is kept: it diagnoses clock skew and is not a secret.
    expect(text).toContain(res.request.getHeader('RequestDate') as string);
  });
});
