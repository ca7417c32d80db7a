import request from 'supertest';
import { adminPost, expectWrapper, signed, useTestApp, userWithRole } from '../helpers/app';
import { createClient } from '../helpers/collectors';

describe('clients (administration and endpoint 7)', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('creates a client with its own token, shown once', async () => {
    const res = await request(t.app)
      .post('/api/v2/clients')
      .set(admin())
      .send({ name: 'DC01 collector', type: 'collector_ad', domain_controller: 'dc01.testlab.local' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'DC01 collector',
      type: 'collector_ad',
      domain_controller: { string: 'dc01.testlab.local', valid: true },
      token: { id: expect.any(String), key: expect.stringMatching(/^[A-Za-z0-9+/]{54}==$/), user_id: { valid: false } },
    });
    const again = await request(t.app).get(`/api/v2/clients/${res.body.data.id}`).set(admin());
    expect(again.body.data.token.key).toBeUndefined();
    expect(again.body.data.token.id).toBe(res.body.data.token.id);
  });

  it("GET /api/v2/clients/{id} answers the API document's Client exactly", async () => {
    const c = await createClient(t.app, t.adminJwt);
    const res = await request(t.app).get(`/api/v2/clients/${c.id}`).set(admin());
    expect(res.status).toBe(200);
    const zeroJob = expect.objectContaining({ id: 0, status: -1, event_id: { int32: 0, valid: false }, domain_results: [] });
    expect(res.body).toEqual({
      data: {
        id: c.id,
        name: c.body.data.name,
        ip_address: '',
        hostname: '',
        configured_user: '',
        last_checkin: '0001-01-01T00:00:00Z',
        events: [],
        token: {
          id: c.token.id,
          created_at: expect.any(String),
          updated_at: expect.any(String),
          deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
          user_id: { uuid: '00000000-0000-0000-0000-000000000000', valid: false },
          name: { string: expect.any(String), valid: true },
          hmac_method: 'hmac-sha2-256',
          last_access: expect.any(String),
        },
        current_job_id: { int64: 0, valid: false },
        current_task_id: { int64: 0, valid: false },
        current_job: zeroJob,
        current_task: zeroJob,
        completed_job_count: 0,
        completed_task_count: 0,
        domain_controller: { string: '', valid: false },
        version: '',
        user_sid: { string: '', valid: false },
        type: 'collector_ad',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });

  it('400 for a malformed client id, 404 for an unknown one, 401 without a caller', async () => {
    expect(expectWrapper(await request(t.app).get('/api/v2/clients/not-a-uuid').set(admin()), 400).message).toMatch(/client_id/);
    const missing = expectWrapper(await request(t.app).get('/api/v2/clients/00000000-0000-4000-8000-000000000000').set(admin()), 404);
    expect(missing).toEqual({ context: 'clients', message: 'The requested client could not be found.' });
    expectWrapper(await request(t.app).get('/api/v2/clients/00000000-0000-4000-8000-000000000000'), 401);
  });

  it('rejects bad input with a 400 naming the field, and duplicate names with 409', async () => {
    const post = adminPost(t, '/api/v2/clients');
    expect(expectWrapper(await post({ type: 'collector_ad' }), 400).message).toMatch(/name/);
    expect(expectWrapper(await post({ name: 'x', type: 'bloodhound' }), 400).message).toMatch(/type must be one of/);
    expect(expectWrapper(await post({ name: 'x', type: 'collector_ad', domain_controller: 'a b;c' }), 400).message).toMatch(
      /domain_controller/,
    );
    expect(expectWrapper(await post({ name: 7, type: 'collector_ad' }), 400).message).toMatch(/name must be a string/);
    await createClient(t.app, t.adminJwt, { name: 'unique-name' });
    expect(expectWrapper(await post({ name: 'Unique-Name', type: 'collector_azure' }), 409)).toEqual({
      context: 'clients',
      message: 'A client named "Unique-Name" already exists.',
    });
  });

  it('needs clients/Manage to create and clients/Read to read', async () => {
    const readOnly = await userWithRole(t, 'Read-Only');
    const user = await userWithRole(t, 'User');
    const c = await createClient(t.app, t.adminJwt);
    const asRo = { Authorization: `Bearer ${readOnly.jwt}` };
    expectWrapper(await request(t.app).post('/api/v2/clients').set(asRo).send({ name: 'n', type: 'collector_ad' }), 403);
    expectWrapper(await request(t.app).get(`/api/v2/clients/${c.id}`).set(asRo), 403);
    const ok = await request(t.app).get(`/api/v2/clients/${c.id}`).set('Authorization', `Bearer ${user.jwt}`);
    expect(ok.status).toBe(200);
  });

  it('lists clients in the pagination envelope', async () => {
    const res = await request(t.app).get('/api/v2/clients?skip=0&limit=2').set(admin());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ skip: 0, limit: 2, count: expect.any(Number) });
    expect(res.body.data.length).toBeLessThanOrEqual(2);
    expectWrapper(await request(t.app).get('/api/v2/clients?limit=-1').set(admin()), 400);
  });

  it('renames, regenerates the token (the old one stops working) and deletes', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const renamed = await request(t.app).put(`/api/v2/clients/${c.id}`).set(admin()).send({ name: 'renamed collector' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('renamed collector');

    expect((await signed(t.app, c.token, 'GET', '/api/v2/jobs/available')).status).toBe(200);
    const regen = await request(t.app).put(`/api/v2/clients/${c.id}/token`).set(admin());
    expect(regen.status).toBe(200);
    const fresh = { id: regen.body.data.id, key: regen.body.data.key };
    expect(fresh.key).toEqual(expect.any(String));
    expectWrapper(await signed(t.app, c.token, 'GET', '/api/v2/jobs/available'), 401);
    expect((await signed(t.app, fresh, 'GET', '/api/v2/jobs/available')).status).toBe(200);

    expect((await request(t.app).delete(`/api/v2/clients/${c.id}`).set(admin())).status).toBe(204);
    expectWrapper(await request(t.app).get(`/api/v2/clients/${c.id}`).set(admin()), 404);
    expectWrapper(await signed(t.app, fresh, 'GET', '/api/v2/jobs/available'), 401);
    expectWrapper(await request(t.app).delete(`/api/v2/clients/${c.id}`).set(admin()), 404);
  });

  it('creates ad-hoc tasks that the client sees as available and that count as tasks, not jobs', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const task = await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({ session_collection: true });
    expect(task.status).toBe(200);
    expect(task.body.data).toMatchObject({
      event_id: { valid: false },
      status: 0,
      session_collection: true,
      event_title: 'ad-hoc collection',
    });
    const available = await signed(t.app, c.token, 'GET', '/api/v2/jobs/available');
    expect(available.body.data.map((j: { id: number }) => j.id)).toEqual([task.body.data.id]);
    await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: task.body.data.id });
    const shown = await request(t.app).get(`/api/v2/clients/${c.id}`).set(admin());
    expect(shown.body.data.current_task_id).toEqual({ int64: task.body.data.id, valid: true });
    expect(shown.body.data.current_job_id).toEqual({ int64: task.body.data.id, valid: true });
    const ended = await signed(t.app, c.token, 'POST', '/api/v2/jobs/end');
    expect(ended.body.data.status).toBe(2);
    const after = await request(t.app).get(`/api/v2/clients/${c.id}`).set(admin());
    expect(after.body.data).toMatchObject({ completed_task_count: 1, completed_job_count: 0, current_task_id: { valid: false } });
    expectWrapper(await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({ ous: 'x' }), 400);
  });
  it('PUT /api/v2/jobs/{id}/cancel cancels a job that has not finished (status 3), 409 once finished', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const cancel = (id: unknown, jwt = t.adminJwt) =>
      request(t.app)
        .put(`/api/v2/jobs/${id}/cancel`)
        .set({ Authorization: `Bearer ${jwt}` });
    const ready = (await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({})).body.data;
    const res = await cancel(ready.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ready.id, status: 3 });
    expect((await signed(t.app, c.token, 'GET', '/api/v2/jobs/available')).body.data).toEqual([]);
    expectWrapper(await cancel(ready.id), 409);

    const running = (await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({})).body.data;
    await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: running.id });
    expect((await cancel(running.id)).body.data.status).toBe(3);

    expectWrapper(await cancel(999999), 404);
    expectWrapper(await cancel('abc'), 400);
    expectWrapper(await request(t.app).put(`/api/v2/jobs/${ready.id}/cancel`), 401);
    const reader = await userWithRole(t, 'Read-Only');
    expectWrapper(await cancel(running.id, reader.jwt), 403);
  });
});
