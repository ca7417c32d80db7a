import request from 'supertest';
import { expectWrapper, useTestApp } from '../helpers/app';
import { createClient } from '../helpers/collectors';

describe("BloodHound's spellings of our routes", () => {
  const t = useTestApp();
  const as = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('GET /api/v2/roles lists the roles with their permissions', async () => {
    const res = await request(t.app).get('/api/v2/roles').set(as());
    expect(res.status).toBe(200);
    const admin = res.body.data.roles.find((r: { name: string }) => r.name === 'Administrator');
    expect(admin).toMatchObject({
      id: expect.any(Number),
      permissions: expect.arrayContaining([expect.objectContaining({ authority: 'graphdb' })]),
    });
    expectWrapper(await request(t.app).get('/api/v2/roles'), 401);
  });

  it('GET /api/v2/roles/{id} answers one role; 404 unknown, 400 bad id', async () => {
    const all = (await request(t.app).get('/api/v2/roles').set(as())).body.data.roles;
    const res = await request(t.app).get(`/api/v2/roles/${all[0].id}`).set(as());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(all[0]);
    expectWrapper(await request(t.app).get('/api/v2/roles/999999').set(as()), 404);
    expectWrapper(await request(t.app).get('/api/v2/roles/abc').set(as()), 400);
    expectWrapper(await request(t.app).get(`/api/v2/roles/${all[0].id}`), 401);
  });

  it('GET /api/v2/file-upload/accepted-types lists the upload content types', async () => {
    const res = await request(t.app).get('/api/v2/file-upload/accepted-types').set(as());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.arrayContaining(['application/json', 'application/zip']));
    expectWrapper(await request(t.app).get('/api/v2/file-upload/accepted-types'), 401);
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

describe('collection job history', () => {
  const t = useTestApp();
  const as = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('lists jobs, finished jobs and a client’s completed jobs; /jobs/finished is not taken for a job id', async () => {
    const c = await createClient(t.app, t.adminJwt);
    // BloodHound's client creates ad-hoc jobs at /clients/{id}/jobs.
    const task = await request(t.app).post(`/api/v2/clients/${c.id}/jobs`).set(as()).send({ session_collection: true });
    expect(task.status).toBe(200);
    const all = await request(t.app).get('/api/v2/jobs').set(as());
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 1, skip: 0, limit: 100, data: [{ id: task.body.data.id, client_id: c.id }] });
    expect((await request(t.app).get('/api/v2/jobs/finished').set(as())).body).toMatchObject({ count: 0, data: [] });
    expect((await request(t.app).get(`/api/v2/clients/${c.id}/completed-jobs?limit=5`).set(as())).body).toMatchObject({
      count: 0,
      limit: 5,
    });
    expectWrapper(await request(t.app).get('/api/v2/clients/not-a-uuid/completed-jobs').set(as()), 400);
    expectWrapper(await request(t.app).get('/api/v2/jobs?skip=-1').set(as()), 400);
    expectWrapper(await request(t.app).get('/api/v2/jobs'), 401);
  });
});

describe('GraphiQL', () => {
  const t = useTestApp();

  it('is served gzip-compressed to a browser', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toMatch(/GraphiQL|graphiql/);
  });
});
