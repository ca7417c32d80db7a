import request from 'supertest';
import { totpCode } from '../../src/auth/totp';
import { useTestApp } from '../helpers/app';
import { createTestIdp } from '../helpers/saml-idp';

/**
 * Walks the identity, MFA, SSO, feature, EULA and audit calls of BloodHound's JS client (client.ts) as the client
 * makes them: its paths, methods and bodies, in the order a user of its UI makes them, checking the fields the
 * client reads.
 */

describe("BloodHound's JS client: identity, MFA, SSO and audit calls", () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const PASSWORD = 'walk-password-long-enough';

  it('works unchanged through a user’s life: created, signs in, enrols MFA, signs in with a code, is audited, leaves', async () => {
    const admin = as(t.adminJwt);
    // getVersion, getFeatureFlags, listRoles, permissionList, listSSOProviders
    expect((await request(t.app).get('/api/version').set(admin).expect(200)).body.data.API.current_version).toBe('v2');
    const flags = (await request(t.app).get('/api/v2/features').set(admin).expect(200)).body.data;
    expect(flags[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        key: expect.any(String),
        enabled: expect.any(Boolean),
        user_updatable: expect.any(Boolean),
      }),
    );
    const roles = (await request(t.app).get('/api/v2/roles').set(admin).expect(200)).body.data.roles;
    const userRole = roles.find((r: { name: string }) => r.name === 'User').id;
    expect((await request(t.app).get('/api/v2/permissions').set(admin).expect(200)).body.data.permissions.length).toBeGreaterThan(5);
    expect(Array.isArray((await request(t.app).get('/api/v2/sso-providers').expect(200)).body.data)).toBe(true);

    // createUser (CreateUserRequest), getUser, updateUser, listUsers, listUsersMinimal
    const created = (
      await request(t.app)
        .post('/api/v2/bloodhound-users')
        .set(admin)
        .send({
          email_address: 'walker@example.com',
          principal: 'walker',
          first_name: 'Wal',
          last_name: 'Ker',
          roles: [userRole],
          secret: PASSWORD,
        })
        .expect(200)
    ).body.data;
    const id = created.id as string;
    await request(t.app).get(`/api/v2/bloodhound-users/${id}`).set(admin).expect(200);
    await request(t.app)
      .patch(`/api/v2/bloodhound-users/${id}`)
      .set(admin)
      .send({ first_name: 'Walter', roles: [userRole] })
      .expect(200);
    expect(
      (await request(t.app).get('/api/v2/bloodhound-users').set(admin).expect(200)).body.data.users.some(
        (u: { id: string }) => u.id === id,
      ),
    ).toBe(true);
    const minimal = (await request(t.app).get('/api/v2/bloodhound-users-minimal').set(admin).expect(200)).body.data.users;
    expect(minimal.find((u: { id: string }) => u.id === id)).toEqual({
      id,
      principal_name: 'walker',
      email_address: 'walker@example.com',
      first_name: 'Walter',
      last_name: 'Ker',
    });

    // login (LoginRequest), getSelf: the fields the client reads
    const first = (
      await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: 'walker', secret: PASSWORD }).expect(200)
    ).body.data;
    expect(first).toEqual({ user_id: id, session_token: expect.any(String), auth_expired: false });
    const me = as(first.session_token);
    const self = (await request(t.app).get('/api/v2/self').set(me).expect(200)).body.data;
    expect(self).toMatchObject({ id, principal_name: 'walker', eula_accepted: false, sso_provider_id: null, is_disabled: false });
    expect(self.AuthSecret).toMatchObject({ id: expect.any(Number), digest_method: expect.any(String), totp_activated: false });

    // acceptEULA
    await request(t.app).put('/api/v2/accept-eula').set(me).expect(200);
    expect((await request(t.app).get('/api/v2/self').set(me)).body.data.eula_accepted).toBe(true);

    // createUserToken, getUserTokens (user_id=eq:), deleteUserToken
    const token = (await request(t.app).post('/api/v2/tokens').set(me).send({ user_id: id, token_name: 'walk' }).expect(200)).body.data;
    expect(token.key).toEqual(expect.any(String));
    const tokens = (
      await request(t.app)
        .get('/api/v2/tokens')
        .query({ user_id: `eq:${id}` })
        .set(me)
        .expect(200)
    ).body.data.tokens;
    expect(tokens.map((k: { id: string }) => k.id)).toContain(token.id);
    await request(t.app).delete(`/api/v2/tokens/${token.id}`).set(me).expect(204);

    // enrollMFA, getMFAActivationStatus, activateMFA
    const enrol = (await request(t.app).post(`/api/v2/bloodhound-users/${id}/mfa`).set(me).send({ secret: PASSWORD }).expect(200)).body
      .data;
    expect(enrol).toEqual({ qr_code: expect.stringMatching(/^data:image\/png;base64,/), totp_secret: expect.any(String) });
    expect((await request(t.app).get(`/api/v2/bloodhound-users/${id}/mfa-activation`).set(me).expect(200)).body).toEqual({
      data: { status: 'pending' },
    });
    const activated = await request(t.app)
      .post(`/api/v2/bloodhound-users/${id}/mfa-activation`)
      .set(me)
      .send({ otp: totpCode(enrol.totp_secret, t.clock.now()) })
      .expect(200);
    expect(activated.body).toEqual({ data: { status: 'activated' } });

    // The two-step login the client's login form makes: without a code, then with one.
    t.clock.advance(30_000);
    const step1 = await request(t.app)
      .post('/api/v2/login')
      .send({ login_method: 'secret', username: 'walker', secret: PASSWORD })
      .expect(400);
    expect(step1.body.errors[0].message).toBe('one time password is invalid');
    const step2 = await request(t.app)
      .post('/api/v2/login')
      .send({ login_method: 'secret', username: 'walker', secret: PASSWORD, otp: totpCode(enrol.totp_secret, t.clock.now()) })
      .expect(200);
    const me2 = as(step2.body.data.session_token);
    expect((await request(t.app).get('/api/v2/self').set(me2)).body.data.AuthSecret.totp_activated).toBe(true);

    // disenrollMFA (axios delete with a body), putUserAuthSecret, expireUserAuthSecret
    expect(
      (await request(t.app).delete(`/api/v2/bloodhound-users/${id}/mfa`).set(me2).send({ secret: PASSWORD }).expect(200)).body,
    ).toEqual({
      data: { status: 'deactivated' },
    });
    await request(t.app)
      .put(`/api/v2/bloodhound-users/${id}/secret`)
      .set(me2)
      .send({ current_secret: PASSWORD, secret: `${PASSWORD}-2`, needs_password_reset: false })
      .expect(200);
    await request(t.app).delete(`/api/v2/bloodhound-users/${id}/secret`).set(admin).expect(200);
    expect(
      (
        await request(t.app)
          .post('/api/v2/login')
          .send({ login_method: 'secret', username: 'walker', secret: `${PASSWORD}-2` })
          .expect(200)
      ).body.data.auth_expired,
    ).toBe(true);

    // toggleFeatureFlag (a user-updatable one, twice: back as it was)
    const toggled = flags.find((f: { user_updatable: boolean }) => f.user_updatable);
    expect((await request(t.app).put(`/api/v2/features/${toggled.id}/toggle`).set(admin).expect(200)).body.data.enabled).toBe(
      !toggled.enabled,
    );
    await request(t.app).put(`/api/v2/features/${toggled.id}/toggle`).set(admin).expect(200);

    // getAuditLogs as the administration page asks: newest first, a page of them, filtered by actor
    const logs = (
      await request(t.app)
        .get('/api/v2/audit')
        .query({ sort_by: '-created_at', limit: 50, skip: 0, actor_id: `eq:${id}` })
        .set(admin)
        .expect(200)
    ).body;
    expect(logs).toMatchObject({ count: expect.any(Number), limit: 50, skip: 0 });
    expect(new Set(logs.data.logs.map((l: { action: string }) => l.action))).toEqual(
      new Set([
        'LoginAttempt',
        'AcceptEULA',
        'CreateAuthToken',
        'DeleteAuthToken',
        'EnrollMFA',
        'ActivateMFA',
        'DisenrollMFA',
        'UpdateUserAuthSecret',
      ]),
    );

    // deleteUser, logout
    await request(t.app).delete(`/api/v2/bloodhound-users/${id}`).set(admin).expect(200);
    await request(t.app).post('/api/v2/logout').set(me2);
    await request(t.app).get('/api/v2/self').set(me2).expect(401);
  });

  it('manages SSO providers as its administration page does: OIDC create, update, list, delete; a SAML certificate', async () => {
    const admin = as(t.adminJwt);
    // createOIDCProvider, updateOIDCProvider (JSON), listSSOProviders
    const oidc = (
      await request(t.app)
        .post('/api/v2/sso-providers/oidc')
        .set(admin)
        .send({
          name: 'Walk OIDC',
          client_id: 'walk-client',
          issuer: 'https://idp.example.com',
          config: { auto_provision: { enabled: false, default_role_id: 3, role_provision: false } },
        })
        .expect(201)
    ).body.data;
    expect(oidc).toMatchObject({ client_id: 'walk-client', issuer: 'https://idp.example.com', sso_provider_id: expect.any(Number) });
    await request(t.app).patch(`/api/v2/sso-providers/${oidc.sso_provider_id}`).set(admin).send({ client_id: 'walk-client-2' }).expect(200);
    const listed = (await request(t.app).get('/api/v2/sso-providers').expect(200)).body.data;
    expect(listed.find((p: { id: number }) => p.id === oidc.sso_provider_id)).toMatchObject({
      type: 'oidc',
      details: { client_id: 'walk-client-2' },
    });

    // createSAMLProviderFromFile, getSAMLProviderSigningCertificate
    const idp = await createTestIdp();
    const saml = (
      await request(t.app)
        .post('/api/v2/sso-providers/saml')
        .set(admin)
        .field('name', 'Walk SAML')
        .attach('metadata', Buffer.from(idp.metadata), { filename: 'idp.xml', contentType: 'application/xml' })
        .expect(200)
    ).body.data;
    const cert = await request(t.app)
      .get(`/api/v2/sso-providers/${saml.sso_provider_id.int32}/signing-certificate`)
      .set(admin)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    expect(cert.status).toBe(200);
    expect(cert.body).toMatch(/^-----BEGIN CERTIFICATE-----/);

    // deleteSSOProvider, both
    await request(t.app).delete(`/api/v2/sso-providers/${oidc.sso_provider_id}`).set(admin).expect(204);
    await request(t.app).delete(`/api/v2/sso-providers/${saml.sso_provider_id.int32}`).set(admin).expect(204);
  });
});
