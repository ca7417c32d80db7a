import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';

/** The rest of BloodHound's accounts and app API: minimal users, EULA acceptance, feature toggles, self fields, version. */
describe('accounts and app API', () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

  it('GET /api/v2/bloodhound-users-minimal: enabled users, names only; BloodHound filters and sort_by; 400 on bad ones', async () => {
    const a = await t.services.identity.createUser({
      principalName: 'min-ann',
      password: 'a-long-test-password',
      role: 'User',
      firstName: 'Ann',
      lastName: 'Zed',
    });
    const b = await t.services.identity.createUser({
      principalName: 'min-bob',
      password: 'a-long-test-password',
      role: 'User',
      firstName: 'Bob',
      lastName: 'Abe',
    });
    const gone = await t.services.identity.createUser({
      principalName: 'min-off',
      password: 'a-long-test-password',
      role: 'User',
      firstName: 'Off',
    });
    await request(t.app).patch(`/api/v2/bloodhound-users/${gone.id}`).set(as(t.adminJwt)).send({ is_disabled: true }).expect(200);
    const reader = await userWithRole(t, 'Read-Only');
    const get = (q: string, jwt = reader.jwt) => request(t.app).get(`/api/v2/bloodhound-users-minimal${q}`).set(as(jwt));

    const all = (await get('').expect(200)).body.data.users as Record<string, unknown>[];
    expect(all.map((u) => u.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all.map((u) => u.id)).not.toContain(gone.id);
    expect(Object.keys(all[0]!).sort()).toEqual(['email_address', 'first_name', 'id', 'last_name', 'principal_name']);

    expect((await get('?first_name=eq:Ann').expect(200)).body.data.users.map((u: { id: string }) => u.id)).toEqual([a.id]);
    expect((await get('?principal_name=~eq:MIN-').expect(200)).body.data.users).toHaveLength(2);
    expect((await get(`?id=neq:${a.id}&principal_name=~eq:min-`).expect(200)).body.data.users.map((u: { id: string }) => u.id)).toEqual([
      b.id,
    ]);
    const sorted = (await get('?principal_name=~eq:min-&sort_by=-last_name').expect(200)).body.data.users;
    expect(sorted.map((u: { last_name: string }) => u.last_name)).toEqual(['Zed', 'Abe']);

    expectWrapper(await get('?id=eq:not-a-uuid'), 400);
    expectWrapper(await get('?first_name=gt:A'), 400);
    expectWrapper(await get('?sort_by=secret_digest'), 400);
    const upload = await userWithRole(t, 'Upload-Only');
    expectWrapper(await get('', upload.jwt), 403);
    expectWrapper(await request(t.app).get('/api/v2/bloodhound-users-minimal'), 401);
  });

  it('GET /api/v2/self carries eula_accepted, sso_provider_id and BloodHound’s AuthSecret (never the digest)', async () => {
    const u = await userWithRole(t, 'User');
    const self = (await request(t.app).get('/api/v2/self').set(as(u.jwt)).expect(200)).body.data;
    expect(self).toMatchObject({ id: u.id, eula_accepted: false, sso_provider_id: null, saml_provider_id: null });
    expect(self.AuthSecret).toEqual({
      id: expect.any(Number),
      digest_method: 'scrypt',
      expires_at: null,
      totp_activated: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(self)).not.toMatch(/scrypt\$/);
  });

  it('PUT /api/v2/accept-eula records the caller’s acceptance; 401 without a caller', async () => {
    const u = await userWithRole(t, 'Read-Only');
    const res = await request(t.app).put('/api/v2/accept-eula').set(as(u.jwt));
    expect(res.status).toBe(200);
    expect((await request(t.app).get('/api/v2/self').set(as(u.jwt))).body.data.eula_accepted).toBe(true);
    expect((await request(t.app).get(`/api/v2/bloodhound-users/${u.id}`).set(as(t.adminJwt))).body.data.eula_accepted).toBe(true);
    // Accepting again is harmless; the first acceptance's time is kept.
    await request(t.app).put('/api/v2/accept-eula').set(as(u.jwt)).expect(200);
    const rows = await t.testDb.db.query<{ n: number }>(
      'select count(*)::int as n from users where eula_accepted and eula_accepted_at is not null and id = $1',
      [u.id],
    );
    expect(rows[0]!.n).toBe(1);
    expectWrapper(await request(t.app).put('/api/v2/accept-eula'), 401);
  });

  it('PUT /api/v2/features/{id}/toggle flips a user-updatable flag and the flag takes effect; others 403, unknown 404', async () => {
    const flags = (await request(t.app).get('/api/v2/features').set(as(t.adminJwt)).expect(200)).body.data as {
      id: number;
      key: string;
      enabled: boolean;
      user_updatable: boolean;
    }[];
    const clear = flags.find((f) => f.key === 'clear_graph_data')!;
    expect(clear).toMatchObject({ enabled: true, user_updatable: true });
    expect(flags.find((f) => f.key === 'cypher_mutations')).toMatchObject({ enabled: false, user_updatable: false });

    const off = await request(t.app).put(`/api/v2/features/${clear.id}/toggle`).set(as(t.adminJwt)).expect(200);
    expect(off.body).toEqual({ data: { enabled: false } });
    const listed = (await request(t.app).get('/api/v2/features').set(as(t.adminJwt))).body.data;
    expect(listed.find((f: { key: string }) => f.key === 'clear_graph_data').enabled).toBe(false);
    // Switched off: clearing the graph is refused.
    expectWrapper(await request(t.app).post('/api/v2/clear-database').set(as(t.adminJwt)).send({ deleteCollectedGraphData: true }), 403);
    const on = await request(t.app).put(`/api/v2/features/${clear.id}/toggle`).set(as(t.adminJwt)).expect(200);
    expect(on.body).toEqual({ data: { enabled: true } });
    expect(
      (await request(t.app).post('/api/v2/clear-database').set(as(t.adminJwt)).send({ deleteCollectedGraphData: true })).status,
    ).toBeLessThan(300);

    const cypher = flags.find((f) => f.key === 'cypher_mutations')!;
    expectWrapper(await request(t.app).put(`/api/v2/features/${cypher.id}/toggle`).set(as(t.adminJwt)), 403);
    expectWrapper(await request(t.app).put('/api/v2/features/9999/toggle').set(as(t.adminJwt)), 404);
    expectWrapper(await request(t.app).put('/api/v2/features/abc/toggle').set(as(t.adminJwt)), 400);
    const user = await userWithRole(t, 'User');
    expectWrapper(await request(t.app).put(`/api/v2/features/${clear.id}/toggle`).set(as(user.jwt)), 403);
  });

  it('GET /api/version: BloodHound’s answer to a caller; 401 in the error wrapper without one, as BloodHound (RequireAuth)', async () => {
    const res = await request(t.app).get('/api/version').set(as(t.adminJwt)).expect(200);
    expect(res.body.data).toEqual({
      API: { current_version: 'v2', deprecated_version: 'v1' },
      server_version: expect.stringMatching(/^v\d/),
    });
    expectWrapper(await request(t.app).get('/api/version'), 401);
  });
});
