import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { answerClientErrors } from '../../src/http/client-error';
import { expectWrapper, useTestApp } from '../helpers/app';

/** Bad bytes are a 400 in the wrapper, anonymous or not, never a 500. */
describe('bad bytes', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it.each([
    '/api/v2/tokens/%E0%A4%A',
    '/api/v2/custom-nodes/%ZZ',
    '/api/v2/asset-group-tags/1/selectors/%',
    '/api/v2/sso/%C0%AF/login',
    '/api/v2/collectors/sharphound/%FF/checksum',
  ])('malformed percent-encoding in %s is a 400', async (path) => {
    expectWrapper(await request(t.app).get(path), 400);
    expectWrapper(await request(t.app).get(path).set(admin()), 400);
  });

  it.each(['/api/v2/custom-nodes/a%00b', '/api/v2/sso/x%00/login', '/api/v2/events?sort_by=%00', '/api/v2/self?x=a%00'])(
    'a NUL in the path or query of %s is a 400',
    async (path) => {
      expectWrapper(await request(t.app).get(path).set(admin()), 400);
    },
  );

  it('a NUL in a JSON body (login included) is a 400', async () => {
    const login = await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: 'ad\u0000min', secret: 'x' });
    expect(expectWrapper(login, 400).message).toMatch(/NUL/);
    const key = await request(t.app).post('/api/v2/tokens').set(admin()).send({ token_name: 'x\u0000' });
    expectWrapper(key, 400);
    const nestedKey = await request(t.app)
      .post('/api/v2/custom-nodes')
      .set(admin())
      .send({ custom_types: { ['K\u0000']: { icon: { type: 'font-awesome', name: 'x' } } } });
    expectWrapper(nestedKey, 400);
  });

  it('a deeply nested JSON body is a 400', async () => {
    // 50,000 levels: 100 kB, under what a caller without credentials may send.
    const body = `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const res = await request(t.app).post('/api/v2/login').set('Content-Type', 'application/json').send(body);
    expect(expectWrapper(res, 400).message).toMatch(/nested/);
  });

  it('100k-deep SAML metadata is a 400', async () => {
    const xml = `<?xml version="1.0"?>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`;
    const res = await request(t.app)
      .post('/api/v2/saml/providers')
      .set(admin())
      .field('name', 'deep')
      .attach('metadata', Buffer.from(xml), { filename: 'idp.xml', contentType: 'application/xml' });
    expectWrapper(res, 400);
  });

  it('a deep or NUL-laden SAML response is refused without a 500', async () => {
    const deep = Buffer.from(`<samlp:Response>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</samlp:Response>`).toString('base64');
    const res = await request(t.app).post('/api/v2/sso/nope/callback').type('form').send({ SAMLResponse: deep });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const nul = await request(t.app).post('/api/v2/sso/nope/callback').type('form').send({ SAMLResponse: 'a\u0000' });
    expectWrapper(nul, 400);
  });

  it('an error message echoes at most a short part of a huge input', async () => {
    const res = await request(t.app)
      .get(`/api/v2/tokens/%${'A'.repeat(10_000)}`)
      .set(admin());
    expect(expectWrapper(res, 400).message.length).toBeLessThan(400);
  });

  it('answers what the Node parser refuses (a 20 kB URL) in the wrapper', async () => {
    const server = t.app.listen(0, '127.0.0.1');
    answerClientErrors(server);
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/self?x=${'A'.repeat(20_000)}`);
      expect(res.status).toBe(431);
      const body = (await res.json()) as { http_status: number; errors: unknown[] };
      expect(body.http_status).toBe(431);
      expect(body.errors).toHaveLength(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
