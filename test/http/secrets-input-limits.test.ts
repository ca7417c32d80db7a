import request from 'supertest';
import { AppError, MAX_MESSAGE } from '../../src/errors';
import { MAX_LIST_ITEMS } from '../../src/services/common/validate';
import { expectWrapper, useTestApp } from '../helpers/app';
import { createClient, DAILY } from '../helpers/collectors';

/** Item 9.11: a capped Prefer wait, short error messages whatever the input, size caps on lists. */
describe('input limits', () => {
  const t = useTestApp({ maxJsonBodyBytes: 32 * 1024 * 1024 });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('Prefer: wait=<huge> is honoured only up to PREFER_MAX_WAIT_SECONDS (600 by default)', async () => {
    for (const wait of ['601', '999999999', '99999999999999999999999']) {
      const res = await request(t.app).get('/api/v2/self').set(admin()).set('Prefer', `wait=${wait}`);
      expect(res.status).toBe(200);
      expect(res.headers['preference-applied']).toBe('wait=600');
    }
    const ok = await request(t.app).get('/api/v2/self').set(admin()).set('Prefer', 'wait=45');
    expect(ok.headers['preference-applied']).toBe('wait=45');
    expectWrapper(await request(t.app).get('/api/v2/self').set(admin()).set('Prefer', 'wait=-1'), 400);
  });

  it('error messages echo at most a few hundred characters of any input', async () => {
    const long = 'A'.repeat(10_000);
    for (const path of [`/api/v2/nowhere/${long}`, `/api/v2/bloodhound-users/${long}`, `/api/v2/saml/providers/${long}`]) {
      const res = await request(t.app).get(path).set(admin());
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors[0].message.length).toBeLessThanOrEqual(MAX_MESSAGE + 40);
    }
    expect(new AppError('BAD_REQUEST', 'x', `bad id "${long}"`).message).toMatch(/… \(10009 characters\)$/);
  });

  it('an event with 600,000 OU ids is refused with 400 and nothing is stored', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const ous = Array.from({ length: 600_000 }, (_, i) => `OU${i}`);
    const res = await request(t.app).post('/api/v2/events').set(admin()).send({ client_id: c.id, rrule: DAILY, ous });
    expect(expectWrapper(res, 400).message).toMatch(/ous holds 600000 items; at most 10000/);
    expect((await request(t.app).get('/api/v2/events').set(admin())).body.data).toEqual([]);
    const edge = await request(t.app)
      .post('/api/v2/events')
      .set(admin())
      .send({ client_id: c.id, rrule: DAILY, ous: Array.from({ length: MAX_LIST_ITEMS }, (_, i) => `OU${i}`) });
    expect(edge.status).toBe(200);
  }, 60_000);
});
