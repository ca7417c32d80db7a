import request from 'supertest';
import { rotateKeyFile } from '../../src/auth/secret-box';
import { expectWrapper, useTestApp } from '../helpers/app';
import { startOidcIdp, type TestOidcIdp } from '../helpers/oidc-idp';

const ROOT = 'http://gas.test';

/** OpenID Connect providers and sign-in against a real OpenID provider (oidc-provider) on a loopback port. */
describe('OIDC providers and sign-in', () => {
  // The key file in DATA_DIR (not GAS_SECRET_KEY), so the rotation test can rotate it.
  const t = useTestApp({ secretKey: undefined });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let idp: TestOidcIdp;
  let ssoId: number;

  const count = async (sql: string) => (await t.testDb.db.query<{ n: number }>(sql))[0]!.n;
  const counts = async () => ({
    users: await count('select count(*)::int as n from users'),
    sessions: await count('select count(*)::int as n from user_sessions'),
  });

  /** Our login redirect, through the IdP, back to our callback: the callback's query and the browser's state cookie. */
  const signIn = async (slug = 'test-oidc') => {
    const login = await request(t.app).get(`/api/v2/sso/${slug}/login`);
    expect(login.status).toBe(302);
    const cookie = (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('gas_sso_state='))!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    const back = await idp.authorize(login.headers.location);
    expect(back.href.startsWith(`${ROOT}/api/v2/sso/${slug}/callback`)).toBe(true);
    return { query: back.search, stateCookie: cookie.split(';')[0]! };
  };
  const callback = (query: string, cookie: string | null, slug = 'test-oidc') => {
    const req = request(t.app).get(`/api/v2/sso/${slug}/callback${query}`).set('Accept', 'application/json');
    return cookie ? req.set('Cookie', cookie) : req;
  };

  beforeAll(async () => {
    idp = await startOidcIdp([`${ROOT}/api/v2/sso/test-oidc/callback`]);
  });
  afterAll(() => idp.close());

  it('creates an OIDC provider with BloodHound’s body; the client secret is sealed at rest', async () => {
    const res = await request(t.app)
      .post('/api/v2/sso-providers/oidc')
      .set(admin())
      .send({
        name: 'Test OIDC',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        config: { auto_provision: { enabled: true, default_role_id: 3, role_provision: false } },
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      client_id: idp.clientId,
      issuer: idp.issuer,
      sso_provider_id: expect.any(Number),
      has_client_secret: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    ssoId = res.body.data.sso_provider_id;
    const [row] = await t.testDb.db.query<{ client_secret: string }>('select client_secret from oidc_providers');
    expect(row!.client_secret).not.toContain(idp.clientSecret);
    const listed = (await request(t.app).get('/api/v2/sso-providers')).body.data.find((p: { id: number }) => p.id === ssoId);
    expect(listed).toMatchObject({
      name: 'Test OIDC',
      slug: 'test-oidc',
      type: 'oidc',
      details: { client_id: idp.clientId, issuer: idp.issuer, sso_provider_id: ssoId },
      config: { auto_provision: { enabled: true, default_role_id: 3, role_provision: false } },
      login_uri: `${ROOT}/api/v2/sso/test-oidc/login`,
      callback_uri: `${ROOT}/api/v2/sso/test-oidc/callback`,
    });
    expect(JSON.stringify(listed)).not.toContain(idp.clientSecret);
    // An OIDC provider has no SAML signing certificate.
    expectWrapper(await request(t.app).get(`/api/v2/sso-providers/${ssoId}/signing-certificate`).set(admin()), 404);
  });

  it('refuses bad provider bodies with 400 and duplicate names with 409', async () => {
    const post = (body: object) => request(t.app).post('/api/v2/sso-providers/oidc').set(admin()).send(body);
    expectWrapper(await post({ issuer: idp.issuer, client_id: 'x' }), 400);
    expectWrapper(await post({ name: 'n', issuer: 'not a url', client_id: 'x' }), 400);
    expectWrapper(await post({ name: 'n', issuer: 'http://idp.example.com', client_id: 'x' }), 400);
    expectWrapper(await post({ name: 'n', issuer: idp.issuer }), 400);
    expectWrapper(await post({ name: 'Test OIDC', issuer: idp.issuer, client_id: 'x' }), 409);
  });

  it('PATCH /sso-providers/{id} with JSON updates an OIDC provider', async () => {
    const created = await request(t.app)
      .post('/api/v2/sso-providers/oidc')
      .set(admin())
      .send({ name: 'Patch OIDC', issuer: idp.issuer, client_id: 'other' });
    const id = created.body.data.sso_provider_id;
    const res = await request(t.app)
      .patch(`/api/v2/sso-providers/${id}`)
      .set(admin())
      .send({ client_id: 'renamed', config: { auto_provision: { enabled: true, default_role_id: 2 } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ client_id: 'renamed', issuer: idp.issuer, has_client_secret: false });
    expectWrapper(await request(t.app).patch(`/api/v2/sso-providers/${id}`).set(admin()).send({ issuer: 'ftp://x' }), 400);
    // A SAML form sent to an OIDC provider finds no SAML provider.
    expectWrapper(await request(t.app).patch(`/api/v2/sso-providers/${id}`).set(admin()).field('name', 'x'), 404);
    expect((await request(t.app).delete(`/api/v2/sso-providers/${id}`).set(admin())).status).toBe(204);
    expect(await count(`select count(*)::int as n from oidc_providers where sso_provider_id = ${Number(id)}`)).toBe(0);
  });

  it('signs in through discovery, PKCE code exchange and a verified ID token; the user is provisioned and bound', async () => {
    const { query, stateCookie } = await signIn();
    const res = await callback(query, stateCookie);
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
    const me = await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${res.body.data.session_token}`);
    expect(me.body.data).toMatchObject({ principal_name: 'alice@example.com', sso_provider_id: ssoId });
    expect(me.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['User']); // role 3, the default
    // Signing in again matches the same user; a browser lands on the web app with its session cookie.
    const again = await signIn();
    const browser = await request(t.app).get(`/api/v2/sso/test-oidc/callback${again.query}`).set('Cookie', again.stateCookie);
    expect(browser.status).toBe(302);
    expect(browser.headers.location).toBe('/ui/login?sso=ok');
    expect((browser.headers['set-cookie'] as unknown as string[]).some((c) => c.startsWith('gas_session='))).toBe(true);
    expect(await count("select count(*)::int as n from users where principal_name = 'alice@example.com'")).toBe(1);
  });

  it('refuses a bad state, a replayed state, a wrong audience and an expired token: 4xx, only audit rows written', async () => {
    idp.nextAccount = 'mallory@example.com';
    const before = await counts();
    const auditBefore = await count("select count(*)::int as n from audit_logs where action = 'LoginAttempt' and status = 'failure'");

    // State not the one this browser was given (login CSRF), or none at all.
    const a = await signIn();
    expect(expectWrapper(await callback(a.query, 'gas_sso_state=forged'), 400).message).toMatch(/bad state/);
    expectWrapper(await callback(a.query, null), 400);
    const forged = a.query.replace(/state=[^&]+/, 'state=forged');
    expectWrapper(await callback(forged, 'gas_sso_state=forged'), 400);
    // The real state still works once, then not again.
    expect((await callback(a.query, a.stateCookie)).status).toBe(200);
    expect(expectWrapper(await callback(a.query, a.stateCookie), 400).message).toMatch(/unknown, used or expired/);
    const afterGood = await counts();

    // An ID token for another client, signed by the IdP's own key.
    const b = await signIn();
    idp.tamper = (c) => ({ ...c, aud: 'another-client' });
    expect(expectWrapper(await callback(b.query, b.stateCookie), 401).message).toMatch(/"aud"/);

    // An expired ID token.
    const c = await signIn();
    idp.tamper = (claims) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 600 });
    expect(expectWrapper(await callback(c.query, c.stateCookie), 401).message).toMatch(/"exp"|expired/);

    // A code the IdP refuses (made up).
    const d = await signIn();
    expectWrapper(await callback(d.query.replace(/code=[^&]+/, 'code=made-up'), d.stateCookie), 401);
    // The IdP's own refusal, relayed.
    expectWrapper(await callback('?error=access_denied&state=x', 'gas_sso_state=x'), 401);
    // A browser (not asking for JSON) lands on the sign-in page, which says so; the state cookie is spent.
    const landed = await request(t.app).get('/api/v2/sso/test-oidc/callback?error=access_denied&state=x').set('Cookie', 'gas_sso_state=x');
    expect([landed.status, landed.headers.location]).toEqual([302, '/ui/login?sso=refused']);
    expect(landed.headers['set-cookie']).toEqual([
      expect.stringMatching(/^gas_sso_state=; Path=\/api\/v2\/sso; HttpOnly; SameSite=Lax; Max-Age=0/),
    ]);

    expect(await counts()).toEqual(afterGood);
    expect(afterGood.users).toBe(before.users + 1); // mallory, by the one good callback
    const failures = await count("select count(*)::int as n from audit_logs where action = 'LoginAttempt' and status = 'failure'");
    expect(failures - auditBefore).toBe(9);
  });

  it('a key rotation re-seals the client secret and SP keys; sign-in still works', async () => {
    const read = async () => (await t.testDb.db.query<{ s: string }>('select client_secret as s from oidc_providers'))[0]!.s;
    const before = await read();
    const newId = rotateKeyFile(t.config.dataDir);
    await t.services.secrets.resealAll();
    const after = await read();
    expect(after).not.toBe(before);
    expect(after).toContain(`:${newId}:`);
    idp.nextAccount = 'alice@example.com';
    const { query, stateCookie } = await signIn();
    expect((await callback(query, stateCookie)).status).toBe(200);
  });

  it('a provider that does not provision refuses unknown users with 403', async () => {
    await request(t.app)
      .patch(`/api/v2/sso-providers/${ssoId}`)
      .set(admin())
      .send({ config: { auto_provision: { enabled: false } } });
    idp.nextAccount = 'nobody@example.com';
    const { query, stateCookie } = await signIn();
    expectWrapper(await callback(query, stateCookie), 403);
    expect(await count("select count(*)::int as n from users where principal_name = 'nobody@example.com'")).toBe(0);
  });
});
