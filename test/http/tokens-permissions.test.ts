import request from 'supertest';
import { apiToken, expectWrapper, signed, userWithRole, useTestApp } from '../helpers/app';

describe('API tokens (endpoint 9 and friends)', () => {
  const t = useTestApp();

  const auth = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

  it('creates a token and shows its key only then', async () => {
    const res = await request(t.app).post('/api/v2/tokens').set(auth(t.adminJwt)).send({ token_name: 'ci' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      user_id: { uuid: expect.any(String), valid: true },
      name: { string: 'ci', valid: true },
      key: expect.stringMatching(/^[A-Za-z0-9+/]{54}==$/),
      hmac_method: 'hmac-sha2-256',
      last_access: expect.any(String),
    });
    const list = await request(t.app).get('/api/v2/tokens').set(auth(t.adminJwt));
    expect(list.status).toBe(200);
    const listed = list.body.data.tokens.find((x: { id: string }) => x.id === res.body.data.id);
    expect(listed).toMatchObject({ id: res.body.data.id, name: { string: 'ci', valid: true } });
    expect(listed).not.toHaveProperty('key');
  });

  it('deletes a token: 204 with no body, then 404', async () => {
    const tok = await apiToken(t.app, t.adminJwt);
    const res = await request(t.app).delete(`/api/v2/tokens/${tok.id}`).set(auth(t.adminJwt));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const again = await request(t.app).delete(`/api/v2/tokens/${tok.id}`).set(auth(t.adminJwt));
    expect(expectWrapper(again, 404)).toEqual({ context: 'tokens', message: 'The requested token could not be found.' });
  });

  it('answers 400 for a malformed token id', async () => {
    expect(expectWrapper(await request(t.app).delete('/api/v2/tokens/12345').set(auth(t.adminJwt)), 400).message).toBe(
      'token_id is malformed: expected a UUID.',
    );
  });

  it("forbids deleting another user's token without auth/ManageUsers, and allows it with", async () => {
    const alice = await userWithRole(t, 'User');
    const bob = await userWithRole(t, 'User');
    const alicesToken = await apiToken(t.app, alice.jwt);
    expect(expectWrapper(await request(t.app).delete(`/api/v2/tokens/${alicesToken.id}`).set(auth(bob.jwt)), 403).context).toBe('tokens');
    expect((await request(t.app).delete(`/api/v2/tokens/${alicesToken.id}`).set(auth(t.adminJwt))).status).toBe(204);
  });

  it('lets a user delete their own token with a signed request', async () => {
    const carol = await userWithRole(t, 'Read-Only');
    const tok = await apiToken(t.app, carol.jwt);
    expect((await signed(t.app, tok, 'DELETE', `/api/v2/tokens/${tok.id}`)).status).toBe(204);
  });

  it('answers 401 without credentials and 403 without auth/CreateToken', async () => {
    expectWrapper(await request(t.app).delete('/api/v2/tokens/00000000-0000-4000-8000-000000000000'), 401);
    const uploader = await userWithRole(t, 'Upload-Only');
    expectWrapper(await request(t.app).delete('/api/v2/tokens/00000000-0000-4000-8000-000000000000').set(auth(uploader.jwt)), 403);
  });

  it('refuses a token for another user unless the caller manages users', async () => {
    const dave = await userWithRole(t, 'User');
    const erin = await userWithRole(t, 'User');
    expectWrapper(await request(t.app).post('/api/v2/tokens').set(auth(dave.jwt)).send({ token_name: 'x', user_id: erin.id }), 403);
    const res = await request(t.app).post('/api/v2/tokens').set(auth(t.adminJwt)).send({ token_name: 'for erin', user_id: erin.id });
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toEqual({ uuid: erin.id, valid: true });
    expect(expectWrapper(await request(t.app).post('/api/v2/tokens').set(auth(t.adminJwt)).send({ user_id: 'nope' }), 400).message).toMatch(
      /user_id is malformed/,
    );
    expect(expectWrapper(await request(t.app).post('/api/v2/tokens').set(auth(t.adminJwt)).send({ token_name: 7 }), 400).message).toMatch(
      /token_name must be a string/,
    );
  });
});

describe('permissions (endpoint 12) and authorisation', () => {
  const t = useTestApp();

  it('returns a permission with deleted_at as {time, valid}', async () => {
    const res = await request(t.app).get('/api/v2/permissions/19').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: 19,
        authority: 'graphdb',
        name: 'Read',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      },
    });
  });

  it.each(['abc', '1.5', '99999999999', '0x1f'])('answers 400 for permission_id %s', async (id) => {
    const err = expectWrapper(await request(t.app).get(`/api/v2/permissions/${id}`).set('Authorization', `Bearer ${t.adminJwt}`), 400);
    expect(err.context).toBe('permissions');
    expect(err.message).toMatch(/permission_id/);
  });

  it.each(['0', '-1', '4242'])('answers 404 for unknown permission %s', async (id) => {
    expect(
      expectWrapper(await request(t.app).get(`/api/v2/permissions/${id}`).set('Authorization', `Bearer ${t.adminJwt}`), 404).message,
    ).toBe('The requested permission could not be found.');
  });

  it('answers 401 before looking at parameters when there is no caller', async () => {
    expectWrapper(await request(t.app).get('/api/v2/permissions/abc'), 401);
  });

  it('answers 403 to a role without auth/ManageSelf (Upload-Only)', async () => {
    const uploader = await userWithRole(t, 'Upload-Only');
    const err = expectWrapper(await request(t.app).get('/api/v2/permissions/1').set('Authorization', `Bearer ${uploader.jwt}`), 403);
    expect(err.message).toMatch(/Missing permission: auth\/ManageSelf/);
  });

  it('denies a Read-Only user the user list (403) and lets the admin read it', async () => {
    const ro = await userWithRole(t, 'Read-Only');
    const err = expectWrapper(await request(t.app).get('/api/v2/bloodhound-users').set('Authorization', `Bearer ${ro.jwt}`), 403);
    expect(err.message).toMatch(/auth\/ManageUsers/);
    const ok = await request(t.app).get('/api/v2/bloodhound-users').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.users.map((u: { principal_name: string }) => u.principal_name)).toEqual(expect.arrayContaining(['admin', ro.name]));
  });

  it('seeds BloodHound roles with their permissions', async () => {
    const roles = await t.services.permissions.listRoles();
    expect(roles.map((r) => r.name)).toEqual(['Administrator', 'Power User', 'User', 'Read-Only', 'Upload-Only']);
    const grants = await t.services.permissions.permissionsOfRoles(roles.map((r) => r.id));
    const names = (role: string) =>
      grants
        .get(roles.find((r) => r.name === role)!.id)!
        .map((p) => `${p.authority}/${p.name}`)
        .sort();
    expect(names('Upload-Only')).toEqual(['clients/Tasking', 'graphdb/Ingest']);
    expect(names('Read-Only')).toContain('graphdb/Read');
    expect(names('Read-Only')).not.toContain('graphdb/Write');
    expect(names('Administrator')).not.toContain('auth/AcceptEULA');
    expect(names('Administrator')).toHaveLength(22);
  });
});
