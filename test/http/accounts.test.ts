import request from 'supertest';
import { expectWrapper, login, useTestApp, userWithRole } from '../helpers/app';

/** Item 9.12: change a password, expire it, disable, delete, end sessions; login throttling is test/http/login-throttle.test.ts. */
describe('accounts', () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

  it('POST /api/v2/bloodhound-users creates a user who can log in; the rules of gas user create; admin only', async () => {
    const roles = (await request(t.app).get('/api/v2/roles').set(as(t.adminJwt))).body.data.roles;
    const userRole = roles.find((r: { name: string }) => r.name === 'User').id;
    const post = (body: object, jwt = t.adminJwt) => request(t.app).post('/api/v2/bloodhound-users').set(as(jwt)).send(body);
    const res = await post({ principal: 'new-analyst', secret: 'a-long-enough-secret', roles: [userRole], email_address: 'a@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ principal_name: 'new-analyst', roles: [expect.objectContaining({ name: 'User' })] });
    expect(await login(t.app, 'new-analyst', 'a-long-enough-secret')).toEqual(expect.any(String));
    expectWrapper(await post({ principal: 'new-analyst', secret: 'a-long-enough-secret', roles: [userRole] }), 409);
    expectWrapper(await post({ principal: 'short', secret: 'short', roles: [userRole] }), 400);
    expectWrapper(await post({ principal: 'norole', secret: 'a-long-enough-secret', roles: [] }), 400);
    expectWrapper(await post({ principal: 'badrole', secret: 'a-long-enough-secret', roles: [999999] }), 400);
    expectWrapper(await post({ secret: 'a-long-enough-secret', roles: [userRole] }), 400);
    expectWrapper(await post([1] as unknown as object), 400);
    const plain = await userWithRole(t, 'User');
    expectWrapper(await post({ principal: 'by-user', secret: 'a-long-enough-secret', roles: [userRole] }, plain.jwt), 403);
    expect(
      (await request(t.app).get('/api/v2/bloodhound-users').set(as(t.adminJwt))).body.data.users.map(
        (u: { principal_name: string }) => u.principal_name,
      ),
    ).not.toContain('short');
  });

  it('GET /api/v2/bloodhound-users/{id}: the user with roles; 400 malformed, 404 unknown, 403 without auth/ManageSelf', async () => {
    const u = await userWithRole(t, 'User');
    const res = await request(t.app).get(`/api/v2/bloodhound-users/${u.id}`).set(as(t.adminJwt)).expect(200);
    expect(res.body.data).toMatchObject({ id: u.id, principal_name: u.name, is_disabled: false, roles: [{ name: 'User' }] });
    expectWrapper(await request(t.app).get('/api/v2/bloodhound-users/not-a-uuid').set(as(t.adminJwt)), 400);
    expectWrapper(
      await request(t.app)
        .get(`/api/v2/bloodhound-users/${'9'.repeat(10_000)}`)
        .set(as(t.adminJwt)),
      400,
    );
    expectWrapper(await request(t.app).get('/api/v2/bloodhound-users/00000000-0000-4000-8000-000000000000').set(as(t.adminJwt)), 404);
    const uploader = await userWithRole(t, 'Upload-Only');
    expectWrapper(await request(t.app).get(`/api/v2/bloodhound-users/${u.id}`).set(as(uploader.jwt)), 403);
  });

  it('PUT …/secret: own password needs the current one; the new one works, the old does not, other sessions end', async () => {
    const u = await userWithRole(t, 'User');
    const second = await login(t.app, u.name, 'a-long-test-password');
    const url = `/api/v2/bloodhound-users/${u.id}/secret`;
    expect(expectWrapper(await request(t.app).put(url).set(as(u.jwt)).send({ secret: 'a-brand-new-password' }), 403).message).toMatch(
      /current password/,
    );
    expectWrapper(await request(t.app).put(url).set(as(u.jwt)).send({ secret: 'short', current_secret: 'a-long-test-password' }), 400);
    expectWrapper(await request(t.app).put(url).set(as(u.jwt)).send({ secret: 42 }), 400);
    expectWrapper(await request(t.app).put(url).set(as(u.jwt)).send([]), 400);
    await request(t.app)
      .put(url)
      .set(as(u.jwt))
      .send({ secret: 'a-brand-new-password', current_secret: 'a-long-test-password' })
      .expect(200);
    await request(t.app).get('/api/v2/self').set(as(u.jwt)).expect(200); // the caller's session stays
    expectWrapper(await request(t.app).get('/api/v2/self').set(as(second)), 401); // the other one ended
    await expect(login(t.app, u.name, 'a-long-test-password')).rejects.toThrow(/401/);
    await login(t.app, u.name, 'a-brand-new-password');
    // Someone else's password needs auth/ManageUsers.
    const other = await userWithRole(t, 'User');
    expectWrapper(
      await request(t.app).put(`/api/v2/bloodhound-users/${other.id}/secret`).set(as(u.jwt)).send({ secret: 'another-long-password' }),
      403,
    );
    await request(t.app)
      .put(`/api/v2/bloodhound-users/${other.id}/secret`)
      .set(as(t.adminJwt))
      .send({ secret: 'another-long-password' })
      .expect(200);
    await login(t.app, other.name, 'another-long-password');
  });

  it('DELETE …/secret expires the password: the next login reports auth_expired', async () => {
    const u = await userWithRole(t, 'User');
    await request(t.app).delete(`/api/v2/bloodhound-users/${u.id}/secret`).set(as(t.adminJwt)).expect(200);
    const res = await request(t.app)
      .post('/api/v2/login')
      .send({ login_method: 'secret', username: u.name, secret: 'a-long-test-password' });
    expect(res.body.data.auth_expired).toBe(true);
  });

  it('PATCH is_disabled ends every session and refuses logins; enabling restores logins', async () => {
    const u = await userWithRole(t, 'User');
    const url = `/api/v2/bloodhound-users/${u.id}`;
    await request(t.app).patch(url).set(as(t.adminJwt)).send({ is_disabled: true }).expect(200);
    expectWrapper(await request(t.app).get('/api/v2/self').set(as(u.jwt)), 401);
    await expect(login(t.app, u.name, 'a-long-test-password')).rejects.toThrow(/401/);
    await request(t.app).patch(url).set(as(t.adminJwt)).send({ is_disabled: false }).expect(200);
    const fresh = await login(t.app, u.name, 'a-long-test-password');
    expectWrapper(await request(t.app).patch(url).set(as(t.adminJwt)).send({ is_disabled: 'yes' }), 400);
    expectWrapper(
      await request(t.app)
        .patch(url)
        .set(as(t.adminJwt))
        .send({ roles: [1, 'x'] }),
      400,
    );
    expectWrapper(await request(t.app).patch(url).set(as(fresh)).send({ is_disabled: true }), 403);
    const admin = await t.services.identity.principalByName('admin');
    expect(
      expectWrapper(
        await request(t.app).patch(`/api/v2/bloodhound-users/${admin.userId}`).set(as(t.adminJwt)).send({ is_disabled: true }),
        400,
      ).message,
    ).toMatch(/cannot disable yourself/);
  });

  it('DELETE removes the user, their sessions and tokens; not yourself', async () => {
    const u = await userWithRole(t, 'User');
    await request(t.app).delete(`/api/v2/bloodhound-users/${u.id}`).set(as(t.adminJwt)).expect(200);
    expectWrapper(await request(t.app).get('/api/v2/self').set(as(u.jwt)), 401);
    expectWrapper(await request(t.app).delete(`/api/v2/bloodhound-users/${u.id}`).set(as(t.adminJwt)), 404);
    const admin = await t.services.identity.principalByName('admin');
    expectWrapper(await request(t.app).delete(`/api/v2/bloodhound-users/${admin.userId}`).set(as(t.adminJwt)), 400);
  });

  it('DELETE …/sessions ends a user’s sessions', async () => {
    const u = await userWithRole(t, 'User');
    const res = await request(t.app).delete(`/api/v2/bloodhound-users/${u.id}/sessions`).set(as(t.adminJwt)).expect(200);
    expect(res.body.data.ended).toBe(1);
    expectWrapper(await request(t.app).get('/api/v2/self').set(as(u.jwt)), 401);
  });

  it('GraphQL: the same operations (updateUser, setUserSecret, deleteUser)', async () => {
    const u = await userWithRole(t, 'User');
    const gql = (query: string, variables: object, jwt = t.adminJwt) =>
      request(t.app).post('/graphql').set(as(jwt)).send({ query, variables });
    const upd = await gql('mutation($id:String!){updateUser(id:$id,input:{isDisabled:true,firstName:"Ann"}){isDisabled firstName}}', {
      id: u.id,
    });
    expect(upd.body.data.updateUser).toEqual({ isDisabled: true, firstName: 'Ann' });
    const pw = await gql('mutation($id:String!){setUserSecret(id:$id,input:{secret:"graphql-set-password"})}', { id: u.id });
    expect(pw.body.data.setUserSecret).toBe(true);
    const plain = await userWithRole(t, 'User');
    const denied = await gql('mutation($id:String!){deleteUser(id:$id)}', { id: u.id }, plain.jwt);
    expect(denied.body.errors[0].message).toMatch(/permission/i);
    expect((await gql('mutation($id:String!){deleteUser(id:$id)}', { id: u.id })).body.data.deleteUser).toBe(true);
  });
});
