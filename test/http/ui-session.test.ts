import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { totpCode } from '../../src/auth/totp';
import { ADMIN_PASSWORD, expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { TESTLAB } from '../helpers/fixtures';

const CSRF = { 'X-GAS-CSRF': '1' };
const SELF = { query: '{ self { principalName } }' };

/** The session cookie of a Set-Cookie answer, as a browser would send it back. */
const cookieOf = (res: request.Response) => String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!;

describe('the web app session cookie', () => {
  const t = useTestApp({ trustProxy: 1 });
  const signIn = (body: object = { username: 'admin', password: ADMIN_PASSWORD }) =>
    request(t.app).post('/ui/session').set(CSRF).send(body);

  it('signs in with an HttpOnly, SameSite=Strict cookie and never hands the JWT to the page', async () => {
    const res = await signIn();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { user_id: expect.any(String), auth_expired: false } });
    expect(res.headers['set-cookie']).toEqual([
      expect.stringMatching(/^gas_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/),
    ]);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).not.toContain(cookieOf(res).split('=')[1]);
  });

  it('marks the cookie Secure when the browser came over https (through a trusted proxy)', async () => {
    const res = await signIn().set('X-Forwarded-Proto', 'https');
    expect(res.headers['set-cookie'][0]).toMatch(/; Secure$/);
  });

  it('refuses a wrong password with 401 in the wrapper and sets no cookie', async () => {
    const res = await signIn({ username: 'admin', password: 'not the password' });
    expect(expectWrapper(res, 401).message).toMatch(/unknown user name or wrong secret/);
    expect(res.headers['set-cookie']).toBeUndefined();
    expectWrapper(await signIn({ username: 'admin' }), 400);
  });

  it('refuses sign-in without the CSRF header or from another origin (login CSRF)', async () => {
    const body = { username: 'admin', password: ADMIN_PASSWORD };
    expectWrapper(await request(t.app).post('/ui/session').send(body), 403);
    expectWrapper(await signIn().set('Origin', 'https://evil.example'), 403);
    expectWrapper(await signIn().set('Sec-Fetch-Site', 'cross-site'), 403);
    // The app's own pages: Origin is this server, or ROOT_URL.
    expect((await signIn().set('Origin', 'http://gas.test')).status).toBe(200);
  });

  it('authenticates GraphQL and REST with the cookie only together with the CSRF header from this site', async () => {
    const cookie = cookieOf(await signIn());
    const gql = () => request(t.app).post('/graphql').set('Cookie', cookie);
    const ok = await gql().set(CSRF).send(SELF);
    expect(ok.body).toEqual({ data: { self: { principalName: 'admin' } } });
    // Without the header the cookie is not looked at: the request is anonymous.
    expect((await gql().send(SELF)).status).toBe(401);
    expectWrapper(await gql().set(CSRF).set('Origin', 'https://evil.example').send(SELF), 403);
    const rest = await request(t.app).get('/api/v2/self').set('Cookie', cookie).set(CSRF);
    expect(rest.status).toBe(200);
    expect(rest.body.data.principal_name).toBe('admin');
  });

  it('uploads a collection file through the upload gate with the cookie', async () => {
    const cookie = cookieOf(await signIn());
    const start = await request(t.app).post('/api/v2/file-upload/start').set('Cookie', cookie).set(CSRF);
    expect(start.status).toBe(201);
    const up = await request(t.app)
      .post(`/api/v2/file-upload/${start.body.data.id}`)
      .set('Cookie', cookie)
      .set(CSRF)
      .set('Content-Type', 'application/json')
      .send(fs.readFileSync(path.join(TESTLAB, 'users.json')));
    expect(up.status).toBe(202);
    // Without the header the gate sees no credentials.
    const anon = await request(t.app)
      .post(`/api/v2/file-upload/${start.body.data.id}`)
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send('{}');
    expect(anon.status).toBe(401);
  });

  it('says whether the browser is signed in, 200 either way', async () => {
    const cookie = cookieOf(await signIn());
    const yes = await request(t.app).get('/ui/session').set('Cookie', cookie).set(CSRF);
    expect(yes.body).toEqual({ data: { user_id: expect.any(String), principal_name: 'admin' } });
    const no = await request(t.app).get('/ui/session').set(CSRF);
    expect(no.status).toBe(200);
    expect(no.body).toEqual({ data: null });
    const stale = await request(t.app).get('/ui/session').set('Cookie', 'gas_session=not.a.jwt').set(CSRF);
    expect(stale.body).toEqual({ data: null });
  });

  it('logs out on the server: the cookie is cleared and the same cookie no longer works', async () => {
    const cookie = cookieOf(await signIn());
    const out = await request(t.app).delete('/ui/session').set('Cookie', cookie).set(CSRF);
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie'][0]).toMatch(/^gas_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
    const after = await request(t.app).post('/graphql').set('Cookie', cookie).set(CSRF).send(SELF);
    expect(after.status).toBe(401);
    expect(after.body.errors[0].message).toMatch(/logged out/);
    // Logging out again (an ended session) still clears the cookie.
    expect((await request(t.app).delete('/ui/session').set('Cookie', cookie).set(CSRF)).status).toBe(204);
    expectWrapper(await request(t.app).delete('/ui/session').set('Cookie', cookie), 403);
  });

  it('asks an enrolled user for the one-time password, then signs in with it once', async () => {
    const u = await userWithRole(t, 'User');
    const as = { Authorization: `Bearer ${u.jwt}` };
    const mfa = `/api/v2/bloodhound-users/${u.id}/mfa`;
    const totp = (await request(t.app).post(mfa).set(as).send({ secret: 'a-long-test-password' }).expect(200)).body.data.totp_secret;
    await request(t.app)
      .post(`${mfa}-activation`)
      .set(as)
      .send({ otp: totpCode(totp, t.clock.now()) })
      .expect(200);
    t.clock.advance(30_000);
    const creds = { username: u.name, password: 'a-long-test-password' };
    // Right password, no code: an answer that asks for it, with no cookie.
    const first = await signIn(creds);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { otp_required: true } });
    expect(first.headers['set-cookie']).toBeUndefined();
    // A wrong password never reaches the code step.
    expectWrapper(await signIn({ ...creds, password: 'not the password' }), 401);
    expect(expectWrapper(await signIn({ ...creds, otp: '000000' }), 400).message).toBe('one time password is invalid');
    const code = totpCode(totp, t.clock.now());
    const ok = await signIn({ ...creds, otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { user_id: u.id, auth_expired: false } });
    expect(ok.headers['set-cookie'][0]).toMatch(/^gas_session=/);
    // Codes are single use.
    expectWrapper(await signIn({ ...creds, otp: code }), 400);
  });

  it('lets GraphiQL send the CSRF header, so it signs in through the app session', async () => {
    const page = await request(t.app).get('/graphql').set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('"x-gas-csrf":"1"');
  });
});
