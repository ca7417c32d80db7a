import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { createTestIdp, type TestIdp } from '../helpers/saml-idp';

/** BloodHound's SAML routes deprecated since its v6.4.0 (GET /api/v2/saml, /saml/sso, DELETE /saml/providers/{id}). */
describe('deprecated SAML routes', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await createTestIdp();
  });
  const create = (name: string) =>
    request(t.app)
      .post('/api/v2/saml/providers')
      .set(admin())
      .field('name', name)
      .attach('metadata', Buffer.from(idp.metadata), { filename: 'idp.xml', contentType: 'application/xml' });

  it('lists providers and their sign-on endpoints, and deletes one by its SAML id answering the users bound to it', async () => {
    const p = (await create('Old Style IdP').expect(200)).body.data;
    const ssoId = p.sso_provider_id.int32 as number;
    const listed = await request(t.app).get('/api/v2/saml').set(admin()).expect(200);
    expect(listed.headers.deprecation).toBe('true');
    expect(listed.body.data.saml_providers).toEqual([
      expect.objectContaining({ id: p.id, name: 'Old Style IdP', sso_provider_id: p.sso_provider_id }),
    ]);
    const sso = await request(t.app).get('/api/v2/saml/sso').expect(200);
    expect(sso.body).toEqual({
      data: { endpoints: [{ name: 'Old Style IdP', initiation_url: 'http://gas.test/api/v2/sso/old-style-idp/login' }] },
    });

    const bound = await t.services.identity.ssoUser('bound@example.com', { id: ssoId, roleId: 3 });
    const del = await request(t.app).delete(`/api/v2/saml/providers/${p.id}`).set(admin()).expect(200);
    expect(del.body.data.affected_users.map((u: { id: string }) => u.id)).toEqual([bound]);
    expect((await request(t.app).get('/api/v2/saml').set(admin())).body.data.saml_providers).toEqual([]);
    expectWrapper(await request(t.app).delete(`/api/v2/saml/providers/${p.id}`).set(admin()), 404);
    expectWrapper(await request(t.app).delete('/api/v2/saml/providers/abc').set(admin()), 400);
    const user = await userWithRole(t, 'User');
    expectWrapper(
      await request(t.app)
        .get('/api/v2/saml')
        .set({ Authorization: `Bearer ${user.jwt}` }),
      403,
    );
    expectWrapper(await request(t.app).get('/api/v2/saml'), 401);
  });
});
