import { generate } from 'selfsigned';
import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { authnRequestId, createTestIdp, type TestIdp } from '../helpers/saml-idp';

const ROOT = 'http://gas.test';

describe('SAML providers (endpoints 2, 3) and SSO login', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let idp: TestIdp;

  const createProvider = (name: string | null, metadata: string | null, extra: Record<string, string> = {}) => {
    let req = request(t.app).post('/api/v2/saml/providers').set(admin());
    if (name !== null) req = req.field('name', name);
    for (const [k, v] of Object.entries(extra)) req = req.field(k, v);
    if (metadata !== null) req = req.attach('metadata', Buffer.from(metadata), { filename: 'idp.xml', contentType: 'application/xml' });
    return req;
  };

  /** Starts a login at our SP and returns the AuthnRequest id the IdP must answer. */
  const startLogin = async (slug: string) => {
    const res = await request(t.app).get(`/api/v2/sso/${slug}/login`);
    expect(res.status).toBe(302);
    return authnRequestId(res.headers.location);
  };
  const callback = (slug: string, samlResponse: string) =>
    request(t.app).post(`/api/v2/sso/${slug}/callback`).set('Accept', 'application/json').type('form').send({ SAMLResponse: samlResponse });

  beforeAll(async () => {
    idp = await createTestIdp();
  });

  it('PATCH /api/v2/sso-providers/{id} updates a SAML provider with the rules of create', async () => {
    const created = (await createProvider('Patch Me', idp.metadata)).body.data;
    const ssoId = created.sso_provider_id.int32;
    const patch = (id: unknown, fields: Record<string, string>, jwt = t.adminJwt) => {
      let req = request(t.app)
        .patch(`/api/v2/sso-providers/${id}`)
        .set({ Authorization: `Bearer ${jwt}` });
      for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
      return req;
    };
    const res = await patch(ssoId, { name: 'Patched IdP', 'config.auto_provision.enabled': 'true' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: created.id,
      name: 'Patched IdP',
      idp_issuer_uri: idp.entityId,
      sp_sso_uri: `${ROOT}/api/v2/sso/patched-idp/login`,
    });
    const listed = (await request(t.app).get('/api/v2/sso-providers')).body.data.find((p: { id: number }) => p.id === ssoId);
    expect(listed).toMatchObject({ name: 'Patched IdP', slug: 'patched-idp' });
    expectWrapper(await patch(ssoId, { metadata: '<html/>' }), 400);
    expectWrapper(await patch(ssoId, { 'config.auto_provision.default_role_id': 'x' }), 400);
    expect((await request(t.app).get(`/api/v2/saml/providers/${created.id}`).set(admin())).body.data.name).toBe('Patched IdP');
    await createProvider('Taken Name', idp.metadata);
    expectWrapper(await patch(ssoId, { name: 'Taken Name' }), 409);
    expectWrapper(await patch(999999, { name: 'x' }), 404);
    expectWrapper(await patch('abc', { name: 'x' }), 400);
    const user = await userWithRole(t, 'User');
    expectWrapper(await patch(ssoId, { name: 'x' }, user.jwt), 403);
  });

  it('creates a provider from IdP metadata; SP URLs come from ROOT_URL and the slug', async () => {
    const res = await createProvider('Test IdP', idp.metadata, {
      'config.auto_provision.enabled': 'true',
      'config.auto_provision.default_role_id': '3',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      name: 'Test IdP',
      display_name: 'Test IdP',
      idp_issuer_uri: idp.entityId,
      idp_sso_uri: idp.ssoUrl,
      principal_attribute_mappings: [],
      sp_issuer_uri: `${ROOT}/api/v2/sso/test-idp`,
      sp_sso_uri: `${ROOT}/api/v2/sso/test-idp/login`,
      sp_metadata_uri: `${ROOT}/api/v2/sso/test-idp/metadata`,
      sp_acs_uri: `${ROOT}/api/v2/sso/test-idp/callback`,
      sso_provider_id: { int32: expect.any(Number), valid: true },
    });

    const got = await request(t.app).get(`/api/v2/saml/providers/${res.body.data.id}`).set(admin());
    expect(got.status).toBe(200);
    expect(got.headers.deprecation).toBe('true');
    expect(got.headers.link).toBe('</api/v2/sso-providers>; rel="successor-version"');
    expect(got.body.data).toEqual(res.body.data);

    const list = await request(t.app).get('/api/v2/sso-providers'); // no caller: the login page needs it
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({
        name: 'Test IdP',
        slug: 'test-idp',
        type: 'saml',
        login_uri: `${ROOT}/api/v2/sso/test-idp/login`,
        callback_uri: `${ROOT}/api/v2/sso/test-idp/callback`,
        config: { auto_provision: { enabled: true, default_role_id: 3, role_provision: false } },
        details: expect.objectContaining({ idp_issuer_uri: idp.entityId }),
      }),
    );
  });

  it.each([
    [null, 'META', /form is missing "name" parameter/],
    ['No metadata', null, /form is missing "metadata" parameter/],
    ['Bad XML', '<md:EntityDescriptor', /metadata is not well-formed XML/],
    ['Not metadata', '<html><body>hi</body></html>', /no EntityDescriptor/],
    ['No POST binding', 'META_REDIRECT_ONLY', /metadata does not have a SSO service that supports HTTP POST binding/],
  ])('400 for %s', async (name, metadata, reason) => {
    const meta =
      metadata === 'META'
        ? idp.metadata
        : metadata === 'META_REDIRECT_ONLY'
          ? idp.metadata.replace(/<md:SingleSignOnService Binding="[^"]+HTTP-POST"[^>]*\/>/, '')
          : metadata;
    const err = expectWrapper(await createProvider(name, meta), 400);
    expect(err.message).toMatch(reason);
  });

  it('refuses XXE and entity expansion ("billion laughs") without reading or expanding anything', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${idp.metadata
      .replace(/^<\?xml[^>]*>/, '')
      .replace(idp.entityId, '&xxe;')}`;
    const e1 = expectWrapper(await createProvider('XXE', xxe), 400);
    expect(e1.message).toBe('metadata must not contain a DTD or entity declarations.');
    expect(JSON.stringify(e1)).not.toMatch(/root:/);
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${lol}]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&lol9;"/>`;
    // Refused for its DTD, before any parser sees it: nothing is expanded, whatever the machine's speed.
    expect(expectWrapper(await createProvider('Laughs', laughs), 400).message).toBe(
      'metadata must not contain a DTD or entity declarations.',
    );
    // an entity reference without a DTD stays text: it is never resolved
    const bare = idp.metadata.replace(idp.entityId, '&xxe;');
    const res = await createProvider('Bare entity', bare);
    expect(res.status).toBe(200);
    expect(res.body.data.idp_issuer_uri).toBe('&xxe;');
  });

  it('409 for a duplicate name, 403 without auth/ManageProviders, 415 without multipart, 400/404 for provider ids', async () => {
    expect(expectWrapper(await createProvider('test idp', idp.metadata), 409).message).toBe('sso provider name must be unique');
    const power = await userWithRole(t, 'Power User');
    const denied = await request(t.app)
      .post('/api/v2/saml/providers')
      .set('Authorization', `Bearer ${power.jwt}`)
      .field('name', 'x')
      .attach('metadata', Buffer.from(idp.metadata), 'idp.xml');
    expectWrapper(denied, 403);
    expectWrapper(await request(t.app).get('/api/v2/saml/providers/1').set('Authorization', `Bearer ${power.jwt}`), 403);
    expectWrapper(await request(t.app).post('/api/v2/saml/providers').set(admin()).send({ name: 'x' }), 415);
    expectWrapper(await request(t.app).get('/api/v2/saml/providers/abc').set(admin()), 400);
    expectWrapper(await request(t.app).get('/api/v2/saml/providers/99999').set(admin()), 404);
    expectWrapper(await request(t.app).get('/api/v2/saml/providers/1'), 401);
  });

  it('serves SP metadata and redirects the browser to the IdP with an AuthnRequest', async () => {
    const meta = await request(t.app).get('/api/v2/sso/test-idp/metadata').responseType('blob');
    expect(meta.status).toBe(200);
    expect(meta.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    const xml = meta.body.toString();
    expect(xml).toContain(`entityID="${ROOT}/api/v2/sso/test-idp"`);
    expect(xml).toContain(`Location="${ROOT}/api/v2/sso/test-idp/callback"`);
    const login = await request(t.app).get('/api/v2/sso/test-idp/login');
    expect(login.status).toBe(302);
    expect(login.headers.location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    expect(authnRequestId(login.headers.location)).toMatch(/^_/);
    expectWrapper(await request(t.app).get('/api/v2/sso/nobody/login'), 404);
  });

  it('signs in with a signed assertion: a new user is provisioned and gets a normal session', async () => {
    const id = await startLogin('test-idp');
    const sp = `${ROOT}/api/v2/sso/test-idp`;
    const res = await callback(
      'test-idp',
      idp.response({ inResponseTo: id, audience: sp, acs: `${sp}/callback`, nameId: 'alice@example.com' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user_id: expect.any(String), session_token: expect.any(String), auth_expired: false });
    const self = await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${res.body.data.session_token}`);
    expect(self.body.data).toMatchObject({
      principal_name: 'alice@example.com',
      email_address: 'alice@example.com',
      roles: [{ name: 'User' }],
    });

    // The browser flow: redirect to the UI with the session cookie.
    const id2 = await startLogin('test-idp');
    const browser = await request(t.app)
      .post('/api/v2/sso/test-idp/callback')
      .type('form')
      .send({ SAMLResponse: idp.response({ inResponseTo: id2, audience: sp, acs: `${sp}/callback`, nameId: 'alice@example.com' }) });
    expect(browser.status).toBe(302);
    expect(browser.headers.location).toBe('/ui/login?sso=ok');
    expect(browser.headers['set-cookie'][0]).toMatch(/^gas_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('refuses forged, expired, tampered, replayed and unsolicited responses', async () => {
    const sp = `${ROOT}/api/v2/sso/test-idp`;
    const base = { audience: sp, acs: `${sp}/callback`, nameId: 'mallory@example.com' };
    const other = await generate([{ name: 'commonName', value: 'evil.test' }], { keySize: 2048, algorithm: 'sha256' });

    const forged = await callback(
      'test-idp',
      idp.response({ ...base, inResponseTo: await startLogin('test-idp'), signingKey: other.private }),
    );
    expect(expectWrapper(forged, 401).message).toMatch(/^The SAML response was refused: .*signature/i);

    const expired = await callback(
      'test-idp',
      idp.response({ ...base, inResponseTo: await startLogin('test-idp'), notBeforeMs: -3_600_000, notOnOrAfterMs: -600_000 }),
    );
    // node-saml checks the subject confirmation window first; both are past NotOnOrAfter here
    expect(expectWrapper(expired, 401).message).toMatch(/expired|no valid subject confirmation/i);

    const signed = Buffer.from(idp.response({ ...base, inResponseTo: await startLogin('test-idp') }), 'base64').toString();
    const tampered = await callback('test-idp', Buffer.from(signed.replace('mallory@example.com', 'admin')).toString('base64'));
    expectWrapper(tampered, 401);

    const wrongAudience = await callback(
      'test-idp',
      idp.response({ ...base, audience: 'https://elsewhere.test', inResponseTo: await startLogin('test-idp') }),
    );
    expect(expectWrapper(wrongAudience, 401).message).toMatch(/audience/i);

    const unsolicited = await callback('test-idp', idp.response({ ...base, inResponseTo: '_never-issued' }));
    expect(expectWrapper(unsolicited, 401).message).toMatch(/InResponseTo/i);

    const id = await startLogin('test-idp');
    const once = idp.response({ ...base, nameId: 'alice@example.com', inResponseTo: id });
    expect((await callback('test-idp', once)).status).toBe(200);
    expectWrapper(await callback('test-idp', once), 401); // replay: the request id was used up
    // A browser posted the refused response: it lands on the sign-in page, which says so; no session is made.
    const page = await request(t.app)
      .post('/api/v2/sso/test-idp/callback')
      .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
      .type('form')
      .send({ SAMLResponse: once });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/ui/login?sso=refused');
    expect(page.headers['set-cookie']).toBeUndefined();

    expectWrapper(await callback('test-idp', Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>').toString('base64')), 400);
    expectWrapper(await request(t.app).post('/api/v2/sso/test-idp/callback').type('form').send({}), 400);
  });

  it('maps principals through principal_attribute_mappings and refuses unknown users without auto-provisioning', async () => {
    const closed = await createTestIdp('https://closed.test/metadata');
    const res = await createProvider('Closed IdP', closed.metadata, { principal_attribute_mappings: 'uid' });
    expect(res.body.data.principal_attribute_mappings).toEqual(['uid']);
    const sp = `${ROOT}/api/v2/sso/closed-idp`;
    const base = { audience: sp, acs: `${sp}/callback`, nameId: 'someone@example.com' };
    const known = await userWithRole(t, 'Read-Only', 'carol');
    // A local password user is reachable through an IdP only once an administrator links them.
    const unlinked = await callback(
      'closed-idp',
      closed.response({ ...base, attributes: { uid: 'carol' }, inResponseTo: await startLogin('closed-idp') }),
    );
    expectWrapper(unlinked, 403);
    await t.services.accounts.linkSso(await t.services.identity.principalByName('admin'), known.id, 'closed-idp');
    const ok = await callback(
      'closed-idp',
      closed.response({ ...base, attributes: { uid: 'carol' }, inResponseTo: await startLogin('closed-idp') }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.user_id).toBe(known.id);
    const unknown = await callback(
      'closed-idp',
      closed.response({ ...base, attributes: { uid: 'dave' }, inResponseTo: await startLogin('closed-idp') }),
    );
    expect(expectWrapper(unknown, 403).message).toMatch(/No user of this provider matches "dave"/);
    // the other IdP's assertions are not accepted here
    const crossed = await callback(
      'closed-idp',
      idp.response({ ...base, attributes: { uid: 'carol' }, inResponseTo: await startLogin('closed-idp') }),
    );
    expectWrapper(crossed, 401);
  });

  it('deletes an SSO provider (auth/ManageProviders)', async () => {
    const list = await request(t.app).get('/api/v2/sso-providers');
    const closed = list.body.data.find((p: { slug: string }) => p.slug === 'closed-idp');
    expect((await request(t.app).delete(`/api/v2/sso-providers/${closed.id}`).set(admin())).status).toBe(204);
    expectWrapper(await request(t.app).get(`/api/v2/saml/providers/${closed.details.id}`).set(admin()), 404);
    expectWrapper(await request(t.app).delete(`/api/v2/sso-providers/${closed.id}`).set(admin()), 404);
    expectWrapper(await request(t.app).get('/api/v2/sso/closed-idp/login'), 404);
  });
});
