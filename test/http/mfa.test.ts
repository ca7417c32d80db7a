import request from 'supertest';
import { totpCode } from '../../src/auth/totp';
import { expectWrapper, login, useTestApp, userWithRole } from '../helpers/app';

const PASSWORD = 'a-long-test-password';

/** TOTP multi-factor authentication at BloodHound's paths, and its two-step login. */
describe('multi-factor authentication', () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const loginWith = (username: string, otp?: string, secret = PASSWORD) =>
    request(t.app)
      .post('/api/v2/login')
      .send({ login_method: 'secret', username, secret, ...(otp === undefined ? {} : { otp }) });
  // The step after the last accepted code: a fresh code each time, as an authenticator app gives one every 30 s.
  const nextStep = () => t.clock.advance(30_000);

  async function enrolled(role = 'User') {
    const u = await userWithRole(t, role);
    const res = await request(t.app).post(`/api/v2/bloodhound-users/${u.id}/mfa`).set(as(u.jwt)).send({ secret: PASSWORD });
    expect(res.status).toBe(200);
    return { ...u, totp: res.body.data.totp_secret as string, qr: res.body.data.qr_code as string };
  }

  it('enrols with the password, activates with a first code; the secret is sealed at rest', async () => {
    const u = await userWithRole(t, 'User');
    const mfa = (path = 'mfa') => `/api/v2/bloodhound-users/${u.id}/${path}`;
    expect((await request(t.app).get(mfa('mfa-activation')).set(as(u.jwt)).expect(200)).body).toEqual({ data: { status: 'deactivated' } });
    expect(expectWrapper(await request(t.app).post(mfa('mfa-activation')).set(as(u.jwt)).send({ otp: '123456' }), 400).message).toBe(
      'multi-factor authentication enrollment is required before activation',
    );
    expect(expectWrapper(await request(t.app).post(mfa()).set(as(u.jwt)).send({ secret: 'wrong-password!' }), 400).message).toBe(
      'unable to verify current password',
    );

    const res = await request(t.app).post(mfa()).set(as(u.jwt)).send({ secret: PASSWORD }).expect(200);
    expect(res.body.data.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(res.body.data.totp_secret).toMatch(/^[A-Z2-7]{32}$/);
    const secret = res.body.data.totp_secret as string;
    expect((await request(t.app).get(mfa('mfa-activation')).set(as(u.jwt))).body.data.status).toBe('pending');
    const [row] = await t.testDb.db.query<{ secret: string }>('select secret from user_mfa where user_id = $1', [u.id]);
    expect(row!.secret).toMatch(/^gas1:/);
    expect(row!.secret).not.toContain(secret);
    // Pending: login does not ask for a code yet.
    expect((await loginWith(u.name)).status).toBe(200);

    expect(expectWrapper(await request(t.app).post(mfa('mfa-activation')).set(as(u.jwt)).send({ otp: '000000' }), 400).message).toBe(
      'one time password is invalid',
    );
    const ok = await request(t.app)
      .post(mfa('mfa-activation'))
      .set(as(u.jwt))
      .send({ otp: totpCode(secret, t.clock.now()) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { status: 'activated' } });
    const self = (await request(t.app).get('/api/v2/self').set(as(u.jwt))).body.data;
    expect(self.AuthSecret.totp_activated).toBe(true);
    expect(expectWrapper(await request(t.app).post(mfa()).set(as(u.jwt)).send({ secret: PASSWORD }), 400).message).toBe(
      'multi-factor authentication already active',
    );
  });

  it('login of an enrolled user is two-step: no code → 400, a code once → 200, the same code again → 400', async () => {
    const u = await enrolled();
    await request(t.app)
      .post(`/api/v2/bloodhound-users/${u.id}/mfa-activation`)
      .set(as(u.jwt))
      .send({ otp: totpCode(u.totp, t.clock.now()) })
      .expect(200);
    nextStep();
    expect(expectWrapper(await loginWith(u.name), 400).message).toBe('one time password is invalid');
    expect(expectWrapper(await loginWith(u.name, '000000'), 400).message).toBe('one time password is invalid');
    const code = totpCode(u.totp, t.clock.now());
    const res = await loginWith(u.name, code);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user_id: u.id, session_token: expect.any(String), auth_expired: false });
    // Single use: the code just used, and the activation code before it, are refused.
    expectWrapper(await loginWith(u.name, code), 400);
    // A wrong password with a right code is still the password's 401.
    nextStep();
    expectWrapper(await loginWith(u.name, totpCode(u.totp, t.clock.now()), 'not-the-password'), 401);
    // Codes of the previous step are accepted (clock drift); three steps back are not.
    nextStep();
    expectWrapper(await loginWith(u.name, totpCode(u.totp, new Date(t.clock.now().getTime() - 90_000))), 400);
    expect((await loginWith(u.name, totpCode(u.totp, new Date(t.clock.now().getTime() - 30_000)))).status).toBe(200);
  });

  it('wrong codes count against the login throttle (429 with Retry-After), so codes cannot be guessed at speed', async () => {
    const u = await enrolled();
    await request(t.app)
      .post(`/api/v2/bloodhound-users/${u.id}/mfa-activation`)
      .set(as(u.jwt))
      .send({ otp: totpCode(u.totp, t.clock.now()) })
      .expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await loginWith(u.name, '111111')).status);
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
    const locked = await loginWith(u.name, '111111');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Asking for the code (no otp) is the first step of every login and is not counted.
    t.clock.advance(20 * 60_000);
    for (let i = 0; i < 5; i++) expect((await loginWith(u.name)).status).toBe(400);
    expect((await loginWith(u.name, totpCode(u.totp, t.clock.now()))).status).toBe(200);
  });

  it('disenrolment: yourself with your password; an administrator with their own; others 403', async () => {
    const u = await enrolled();
    await request(t.app)
      .post(`/api/v2/bloodhound-users/${u.id}/mfa-activation`)
      .set(as(u.jwt))
      .send({ otp: totpCode(u.totp, t.clock.now()) })
      .expect(200);
    const other = await userWithRole(t, 'User');
    const del = (jwt: string, body: object) => request(t.app).delete(`/api/v2/bloodhound-users/${u.id}/mfa`).set(as(jwt)).send(body);
    expectWrapper(await del(other.jwt, { secret: PASSWORD }), 403);
    expect(expectWrapper(await del(u.jwt, { secret: 'wrong-password!' }), 400).message).toBe('unable to verify current password');
    expectWrapper(await del(t.adminJwt, { secret: PASSWORD }), 400);
    const res = await del(t.adminJwt, { secret: 'admin-password-for-tests' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'deactivated' } });
    expect(await login(t.app, u.name, PASSWORD)).toEqual(expect.any(String));
    expect((await request(t.app).get(`/api/v2/bloodhound-users/${u.id}/mfa-activation`).set(as(t.adminJwt))).body.data.status).toBe(
      'deactivated',
    );
    expectWrapper(await request(t.app).get(`/api/v2/bloodhound-users/${u.id}/mfa-activation`).set(as(other.jwt)), 403);
    expectWrapper(await request(t.app).get('/api/v2/bloodhound-users/not-a-uuid/mfa-activation').set(as(t.adminJwt)), 400);
  });

  it('the mfa_login flag switched off refuses new enrolments; GraphQL shows the same status', async () => {
    const flags = (await request(t.app).get('/api/v2/features').set(as(t.adminJwt))).body.data as { id: number; key: string }[];
    const id = flags.find((f) => f.key === 'mfa_login')!.id;
    await request(t.app).put(`/api/v2/features/${id}/toggle`).set(as(t.adminJwt)).expect(200);
    const u = await userWithRole(t, 'User');
    expectWrapper(await request(t.app).post(`/api/v2/bloodhound-users/${u.id}/mfa`).set(as(u.jwt)).send({ secret: PASSWORD }), 403);
    await request(t.app).put(`/api/v2/features/${id}/toggle`).set(as(t.adminJwt)).expect(200);
    await request(t.app).post(`/api/v2/bloodhound-users/${u.id}/mfa`).set(as(u.jwt)).send({ secret: PASSWORD }).expect(200);
    const gql = await request(t.app)
      .post('/graphql')
      .set(as(u.jwt))
      .send({ query: 'query($id: String!) { mfaStatus(userId: $id) }', variables: { id: u.id } });
    expect(gql.body).toEqual({ data: { mfaStatus: 'pending' } });
  });
});
