import request from 'supertest';
import { runCli } from '../helpers/cli';
import { expectWrapper, useTestApp } from '../helpers/app';
import { authnRequestId, createTestIdp, type TestIdp } from '../helpers/saml-idp';

const ROOT = 'http://gas.test';

/** Item 9.10: an IdP asserting NameID=admin (any case) never gets the built-in administrator. */
describe('SSO users are bound to their provider', () => {
  const t = useTestApp();
  let idp: TestIdp;
  const sp = `${ROOT}/api/v2/sso/open-idp`;
  const base = { audience: sp, acs: `${sp}/callback` };
  const startLogin = async () => authnRequestId((await request(t.app).get('/api/v2/sso/open-idp/login').expect(302)).headers.location);
  const callback = (samlResponse: string) =>
    request(t.app)
      .post('/api/v2/sso/open-idp/callback')
      .set('Accept', 'application/json')
      .type('form')
      .send({ SAMLResponse: samlResponse });

  beforeAll(async () => {
    idp = await createTestIdp('https://open.test/metadata');
    await request(t.app)
      .post('/api/v2/saml/providers')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .field('name', 'Open IdP')
      .field('config.auto_provision.enabled', 'true')
      .field('config.auto_provision.default_role_id', '1')
      .attach('metadata', Buffer.from(idp.metadata), { filename: 'idp.xml', contentType: 'application/xml' })
      .expect(200);
  });

  it.each(['admin', 'ADMIN', 'Admin', ' admin '])(
    'NameID=%j is refused even with auto-provisioning on (403, no session)',
    async (nameId) => {
      const res = await callback(idp.response({ ...base, nameId, inResponseTo: await startLogin() }));
      expect(expectWrapper(res, 403).message).toMatch(/not linked to this provider/);
      const admins = await t.testDb.db.query<{ n: number }>(`select count(*)::int as n from users where lower(principal_name) = 'admin'`);
      expect(admins[0]!.n).toBe(1);
    },
  );

  it('a provider-created user signs in again through the same provider only', async () => {
    const first = await callback(idp.response({ ...base, nameId: 'erin@example.com', inResponseTo: await startLogin() }));
    expect(first.status).toBe(200);
    const again = await callback(idp.response({ ...base, nameId: 'ERIN@example.com', inResponseTo: await startLogin() }));
    expect(again.body.data.user_id).toBe(first.body.data.user_id);
  });

  it('`gas user link-sso` links a local user; then the provider reaches them; --unlink undoes it', async () => {
    await t.services.identity.createUser({ principalName: 'frank', password: 'a-long-test-password', role: 'User' });
    const env = { DATABASE_URL: t.testDb.url, DATA_DIR: t.config.dataDir };
    const refused = await callback(idp.response({ ...base, nameId: 'frank', inResponseTo: await startLogin() }));
    expectWrapper(refused, 403);
    const link = await runCli(['user', 'link-sso', 'frank', '--provider', 'open-idp'], env);
    expect(link).toMatchObject({ code: 0, stderr: '' });
    const ok = await callback(idp.response({ ...base, nameId: 'frank', inResponseTo: await startLogin() }));
    expect(ok.status).toBe(200);
    expect((await runCli(['user', 'link-sso', 'frank', '--unlink'], env)).code).toBe(0);
    expectWrapper(await callback(idp.response({ ...base, nameId: 'frank', inResponseTo: await startLogin() })), 403);
    expect((await runCli(['user', 'link-sso', 'frank', '--provider', 'nope'], env)).code).toBe(1);
  }, 60_000);
});
