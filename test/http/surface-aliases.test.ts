import request from 'supertest';
import { expectWrapper, useTestApp } from '../helpers/app';

describe("BloodHound's spellings of our routes (issue 12)", () => {
  const t = useTestApp();
  const as = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('GET /api/v2/roles lists the roles with their permissions', async () => {
    const res = await request(t.app).get('/api/v2/roles').set(as());
    expect(res.status).toBe(200);
    const admin = res.body.data.roles.find((r: { name: string }) => r.name === 'Administrator');
    expect(admin).toMatchObject({ id: expect.any(Number), permissions: expect.arrayContaining([expect.objectContaining({ authority: 'graphdb' })]) });
    expectWrapper(await request(t.app).get('/api/v2/roles'), 401);
  });

  it('serves sharphound/azurehound as collector_ad/collector_azure', async () => {
    const a = await request(t.app).get('/api/v2/collectors/sharphound').set(as());
    const b = await request(t.app).get('/api/v2/collectors/collector_ad').set(as());
    expect(a.status).toBe(b.status);
    expect(a.body.data).toEqual(b.body.data);
    const c = await request(t.app).get('/api/v2/collectors/azurehound').set(as());
    const d = await request(t.app).get('/api/v2/collectors/collector_azure').set(as());
    expect(c.body.data).toEqual(d.body.data);
  });

  it('POST /api/v2/sso-providers/saml follows the rules of /api/v2/saml/providers', async () => {
    const a = await request(t.app).post('/api/v2/sso-providers/saml').set(as()).field('name', 'x');
    const b = await request(t.app).post('/api/v2/saml/providers').set(as()).field('name', 'x');
    expect(a.status).toBe(400);
    expect(expectWrapper(a, 400).message).toBe(expectWrapper(b, 400).message);
  });
});

describe('GraphiQL (issue 12)', () => {
  const t = useTestApp();

  it('is served gzip-compressed to a browser', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toMatch(/GraphiQL|graphiql/);
  });
});
