import request from 'supertest';
import { computeSignature, signRequest } from '../../src/auth/signature';
import { apiToken, createTestApp, expectWrapper, login, signed, type ApiToken, type TestApp } from '../helpers/app';

describe('signed requests (apisignature)', () => {
  let t: TestApp;
  let token: ApiToken;
  beforeAll(async () => {
    t = await createTestApp();
    token = await apiToken(t.app, await login(t.app));
  });
  afterAll(() => t.close());

  it('authenticates a GET', async () => {
    const res = await signed(t.app, token, 'GET', '/api/v2/permissions/1');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 1, authority: 'app', name: 'ReadAppConfig' });
  });

  it('covers the query string exactly as sent, still percent-encoded', async () => {
    const res = await signed(
      t.app,
      token,
      'GET',
      `/api/v2/tokens?user_id=eq%3A${(await t.services.identity.principalByName('admin')).userId}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.tokens.length).toBeGreaterThan(0);
    // The same request signed without its query string must fail.
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target: '/api/v2/tokens' });
    expect(expectWrapper(await request(t.app).get('/api/v2/tokens?user_id=x').set(headers), 401).message).toMatch(/digest mismatch/);
  });

  it('covers the body', async () => {
    const res = await signed(t.app, token, 'POST', '/api/v2/tokens', { token_name: 'made by a signed request' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toEqual({ string: 'made by a signed request', valid: true });
    const headers = signRequest({
      tokenId: token.id,
      tokenKey: token.key,
      method: 'POST',
      target: '/api/v2/tokens',
      body: '{"token_name":"a"}',
    });
    const tampered = await request(t.app)
      .post('/api/v2/tokens')
      .set(headers)
      .set('Content-Type', 'application/json')
      .send('{"token_name":"b"}');
    expect(expectWrapper(tampered, 401).message).toMatch(/digest mismatch/);
  });

  it('accepts the bhesignature scheme of existing collectors, in any case', async () => {
    const headers = signRequest({
      tokenId: token.id,
      tokenKey: token.key,
      method: 'GET',
      target: '/api/v2/permissions/2',
      scheme: 'BHESignature',
    });
    expect((await request(t.app).get('/api/v2/permissions/2').set(headers)).status).toBe(200);
  });

  it('accepts a RequestDate with another UTC offset, hashing its own hour', async () => {
    // A fresh token: a token's first request fixes its offset (see secrets-signature.test.ts).
    const token = await apiToken(t.app, await login(t.app), 'offset');
    const date = new Date();
    const local = new Date(date.getTime() + 5.5 * 3600_000).toISOString().replace('Z', '+05:30');
    const sig = computeSignature(token.key, 'GET', '/api/v2/permissions/3', local).toString('base64');
    const res = await request(t.app)
      .get('/api/v2/permissions/3')
      .set({ Authorization: `apisignature ${token.id}`, RequestDate: local, Signature: sig });
    expect(res.status).toBe(200);
  });

  it('updates the token last_access', async () => {
    const fresh = await apiToken(t.app, await login(t.app), 'touch');
    expect(
      (await t.services.tokens.list(await t.services.identity.principalByName('admin'))).find((x) => x.id === fresh.id)?.lastAccess,
    ).toBeNull();
    await signed(t.app, fresh, 'GET', '/api/v2/permissions/1').expect(200);
    const after = (await t.services.tokens.list(await t.services.identity.principalByName('admin'))).find((x) => x.id === fresh.id);
    expect(after?.lastAccess).toBeInstanceOf(Date);
  });

  describe('failures are 401 and name the failing part', () => {
    const base = () => signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target: '/api/v2/permissions/1' });
    const send = (headers: Record<string, string | undefined>) => {
      let req = request(t.app).get('/api/v2/permissions/1');
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) req = req.set(k, v);
      return req;
    };

    it.each<[string, () => Record<string, string | undefined>, RegExp]>([
      ['a malformed token id', () => ({ ...base(), Authorization: 'apisignature not-a-uuid' }), /token ID .* malformed/],
      ['a missing RequestDate', () => ({ ...base(), RequestDate: undefined }), /RequestDate header is missing/],
      ['a malformed RequestDate', () => ({ ...base(), RequestDate: 'Sun, 22 Nov 2026 10:00:00 GMT' }), /RequestDate header is malformed/],
      ['a missing Signature', () => ({ ...base(), Signature: undefined }), /Signature header is missing/],
      ['a Signature that is not base64 of a digest', () => ({ ...base(), Signature: 'not base64!' }), /Signature header is malformed/],
      ['an unknown token', () => ({ ...base(), Authorization: 'apisignature 00000000-0000-4000-8000-000000000000' }), /unknown API token/],
      ['a digest mismatch', () => ({ ...base(), Signature: Buffer.alloc(32).toString('base64') }), /digest mismatch/],
    ])('%s', async (_, headers, message) => {
      const err = expectWrapper(await send(headers()), 401);
      expect(err).toEqual({ context: 'auth', message: expect.stringMatching(message) });
      expect(err.message).not.toContain(token.key);
    });

    it('a date too far ahead', async () => {
      const res = await signed(t.app, token, 'GET', '/api/v2/permissions/1', undefined, { date: new Date(Date.now() + 2 * 3600_000) });
      expect(expectWrapper(res, 401).message).toMatch(/too far ahead of server time by \d+\.\d\d minutes/);
    });

    it('a date too far behind (a replay older than the window)', async () => {
      const res = await signed(t.app, token, 'GET', '/api/v2/permissions/1', undefined, { date: new Date(Date.now() - 3 * 3600_000) });
      expect(expectWrapper(res, 401).message).toMatch(/too far behind server time/);
    });

    it('a deleted token', async () => {
      const jwt = await login(t.app);
      const doomed = await apiToken(t.app, jwt, 'doomed');
      await request(t.app).delete(`/api/v2/tokens/${doomed.id}`).set('Authorization', `Bearer ${jwt}`).expect(204);
      expect(expectWrapper(await signed(t.app, doomed, 'GET', '/api/v2/permissions/1'), 401).message).toMatch(/unknown API token/);
    });
  });
});
