import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { signRequest } from '../../src/auth/signature';
import { createHttpServer } from '../../src/http/http-server';
import { apiToken, expectWrapper, useTestApp } from '../helpers/app';

/** `gas serve`'s HTTP server: requests made with express's prototypes, and the whole surface served through it. */
describe('the HTTP server', () => {
  const t = useTestApp();
  let server: http.Server;
  let url: string;
  const born: { req: boolean; res: boolean }[] = [];

  beforeAll(async () => {
    server = createHttpServer(t.app);
    // Runs before express sees the request: what node made, not what express turned it into.
    server.prependListener('request', (req, res) =>
      born.push({ req: Object.getPrototypeOf(req) === t.app.request, res: Object.getPrototypeOf(res) === t.app.response }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('makes each request and response with express’s prototypes, so express has none to change', async () => {
    born.length = 0;
    expect((await request(url).get('/health')).status).toBe(200);
    expect((await request(url).get('/health')).status).toBe(200);
    expect(born).toEqual([
      { req: true, res: true },
      { req: true, res: true },
    ]);
  });

  it('serves signed and JWT callers, query strings, JSON bodies and the error wrapper through it', async () => {
    const token = await apiToken(t.app, t.adminJwt);
    const target = '/api/v2/self';
    const self = await request(url)
      .get(target)
      .set(signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target }));
    expect(self.status).toBe(200);
    expect(self.body.data.principal_name).toBe('admin');
    expect(self.headers['x-content-type-options']).toBe('nosniff');
    expect(self.headers.requestid).toMatch(/^[0-9a-f-]{36}$/);

    const gql = await request(url).post('/graphql').set('Authorization', `Bearer ${t.adminJwt}`).send({ query: '{ __typename }' });
    expect(gql.body).toEqual({ data: { __typename: 'Query' } });

    const missing = await request(url).get('/api/v2/users/S-1-5-21-0-0-0-404?counts=true').set('Authorization', `Bearer ${t.adminJwt}`);
    expectWrapper(missing, 404);
    const badQuery = await request(url).get('/api/v2/users/S-1-5-21-0-0-0-404?counts=maybe').set('Authorization', `Bearer ${t.adminJwt}`);
    expectWrapper(badQuery, 400);
    const badJson = await request(url)
      .post('/api/v2/tokens')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .set('Content-Type', 'application/json')
      .send('{"token_name":');
    expectWrapper(badJson, 400);
    expectWrapper(await request(url).get('/api/v2/no-such-route'), 404);
  });
});
