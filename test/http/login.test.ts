import request from 'supertest';
import { ADMIN_PASSWORD, expectWrapper, login, useTestApp } from '../helpers/app';

describe('login, JWT sessions and logout', () => {
  const t = useTestApp({ sessionTtlHours: 8 });

  it('exchanges a user name and secret for a session JWT', async () => {
    const res = await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: 'admin', secret: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { user_id: expect.stringMatching(/^[0-9a-f-]{36}$/), session_token: expect.any(String), auth_expired: false },
    });
    const [, payload] = res.body.data.session_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toEqual({
      sub: res.body.data.user_id,
      jti: expect.stringMatching(/^\d+$/),
      iat: expect.any(Number),
      exp: claims.iat + 8 * 3600,
    });
    expect(JSON.parse(Buffer.from(res.body.data.session_token.split('.')[0], 'base64url').toString()).alg).toBe('HS256');
  });

  it('accepts the user name case-insensitively', async () => {
    await expect(login(t.app, 'ADMIN')).resolves.toEqual(expect.any(String));
  });

  it.each([
    ['a wrong secret', { login_method: 'secret', username: 'admin', secret: 'nope' }],
    ['an unknown user', { login_method: 'secret', username: 'nobody', secret: 'nope' }],
  ])('refuses %s with 401', async (_, body) => {
    const err = expectWrapper(await request(t.app).post('/api/v2/login').send(body), 401);
    expect(err).toEqual({ context: 'login', message: expect.stringContaining('Authentication is invalid') });
  });

  it.each([
    ['an unsupported login method', { login_method: 'otp', username: 'admin', secret: 'x' }, /Login method otp is not supported/],
    ['a missing username', { login_method: 'secret', secret: 'x' }, /username (is required|must be a string)/],
    ['a non-string secret', { login_method: 'secret', username: 'admin', secret: 5 }, /secret must be a string/],
    ['an array body', [1, 2], /must be an object/],
  ])('refuses %s with 400', async (_, body, message) => {
    const err = expectWrapper(
      await request(t.app)
        .post('/api/v2/login')
        .send(body as object),
      400,
    );
    expect(err.message).toMatch(message);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await request(t.app).post('/api/v2/login').set('Content-Type', 'application/json').send('{"username": ');
    expect(expectWrapper(res, 400).message).toMatch(/could not be unmarshalled/);
  });

  it('authenticates later requests with the JWT', async () => {
    const jwt = await login(t.app);
    const res = await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ principal_name: 'admin', roles: [{ name: 'Administrator' }] });
    expect(res.body.data.roles[0].permissions).toContainEqual(expect.objectContaining({ authority: 'graphdb', name: 'Read' }));
  });

  it('refuses an expired JWT', async () => {
    const jwt = await login(t.app);
    t.clock.advance(8 * 3600_000 + 1000);
    try {
      const err = expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`), 401);
      expect(err.message).toMatch(/expired/);
    } finally {
      t.clock.advance(-(8 * 3600_000 + 1000));
    }
  });

  it('revokes the JWT on logout', async () => {
    const jwt = await login(t.app);
    const out = await request(t.app).post('/api/v2/logout').set('Authorization', `Bearer ${jwt}`);
    expect(out.status).toBe(204);
    const err = expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`), 401);
    expect(err.message).toMatch(/session has ended/);
  });

  it('refuses a tampered or foreign JWT', async () => {
    const jwt = await login(t.app);
    const [h, p] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 999999 })).toString('base64url')}.${jwt.split('.')[2]}`;
    expect(expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${forged}`), 401).message).toMatch(
      /invalid/,
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', 'Bearer not.a.jwt'), 401).message).toMatch(
      /invalid/,
    );
  });

  it('refuses an unknown authorization scheme and a malformed header', async () => {
    expect(expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', 'Basic YWRtaW46eA=='), 401).message).toMatch(
      /Unsupported authorization scheme/,
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/self').set('Authorization', 'Bearer a b'), 401).message).toMatch(
      /must be "<scheme> <credential>"/,
    );
  });

  it('answers 401 without credentials', async () => {
    expect(expectWrapper(await request(t.app).get('/api/v2/self'), 401).context).toBe('self');
  });
});
