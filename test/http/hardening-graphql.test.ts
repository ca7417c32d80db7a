import request from 'supertest';
import { GRAPHQL_LIMITS } from '../../src/http/graphql-limits';
import { useTestApp } from '../helpers/app';

/** GraphQL budgets are checked before anything expensive; introspection and CORS are closed. */
describe('GraphQL limits', () => {
  const t = useTestApp();
  const gql = (query: string, opts: { jwt?: string; variables?: unknown } = {}) => {
    let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
    if (opts.jwt) req = req.set('Authorization', `Bearer ${opts.jwt}`);
    return req.send({ query, variables: opts.variables });
  };
  const firstError = (res: request.Response): string => res.body.errors?.[0]?.message ?? '';

  it('refuses 20,000 aliases at parse time, without executing', async () => {
    const query = `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    // 300 kB: more than a caller without credentials may send at all (413 before the body is read).
    expect((await gql(query)).status).toBe(413);
    // The parser's token limit is what refuses it (the message), so nothing was validated or run; how fast is a
    // benchmark's question, not a test's.
    const res = await gql(query, { jwt: t.adminJwt });
    expect(res.status).toBe(400);
    expect(firstError(res)).toMatch(/Token limit|too long/);
    expect(res.body.data).toBeUndefined();
  });

  it('refuses more aliases than the budget even when the document is short enough', async () => {
    const n = GRAPHQL_LIMITS.maxAliases + 1;
    const res = await gql(`{ ${Array.from({ length: n }, (_, i) => `a${i}: self { id }`).join(' ')} }`, { jwt: t.adminJwt });
    expect(res.status).toBe(400);
    expect(firstError(res)).toMatch(/Aliases limit/);
  });

  it('allows a login only once per request, however it is aliased', async () => {
    const field = (a: string) =>
      `${a}: login(input: { loginMethod: "secret", username: "admin", password: "wrong-password" }) { sessionToken }`;
    const res = await gql(`mutation { ${field('a')} ${field('b')} }`);
    expect(res.status).toBe(400);
    expect(firstError(res)).toMatch(/Only one login/);
  });

  it('refuses 5,000 nested braces with a 400, not a stack overflow', async () => {
    const res = await gql(`${'{ a '.repeat(5000)}${'}'.repeat(5000)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
  });

  it('refuses a document deeper than the depth budget', async () => {
    const deep = `query { ${'self { roles { permissions { '.repeat(5)} id ${'} } } '.repeat(5)} }`;
    const res = await gql(deep, { jwt: t.adminJwt });
    expect(res.status).toBe(400);
    expect(firstError(res)).toMatch(/depth limit/i);
  });

  it('describes the schema to signed-in callers only', async () => {
    const q = '{ __schema { queryType { name } } }';
    const anon = await gql(q);
    expect(anon.status).toBe(401);
    expect(firstError(anon)).toMatch(/Introspection/);
    const typeQuery = await gql('{ __type(name: "Query") { name } }');
    expect(typeQuery.status).toBe(401);
    const ok = await gql(q, { jwt: t.adminJwt });
    expect(ok.status).toBe(200);
    expect(ok.body.data.__schema.queryType.name).toBe('Query');
    // The anonymous answer does not come from a cache filled by the signed-in caller.
    expect((await gql(q)).status).toBe(401);
  });

  it('refuses NUL characters in literals and variables, and deep variables', async () => {
    const lit = await gql('mutation { login(input: { loginMethod: "secret", username: "ad\\u0000min", password: "x" }) { sessionToken } }');
    expect(lit.status).toBe(400);
    const vars = await gql(
      'mutation($u: String!) { login(input: { loginMethod: "secret", username: $u, password: "x" }) { sessionToken } }',
      {
        variables: { u: 'ad\u0000min' },
      },
    );
    expect(vars.status).toBe(400);
    const deep = `{"query":"query($v: String) { __typename }","variables":{"v":${'['.repeat(10_000)}"x"${']'.repeat(10_000)}}}`;
    const nested = await request(t.app).post('/graphql').set('Content-Type', 'application/json').send(deep);
    expect(nested.status).toBe(400);
  });

  it('refuses bad JSON in GET variables with a 400', async () => {
    const res = await request(t.app).get('/graphql?query=%7B__typename%7D&variables=not%20json');
    expect(res.status).toBe(400);
    expect(res.body.http_status).toBe(400);
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const pre = await request(t.app).options('/graphql').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await gql('{ __typename }').set('Origin', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GraphQL CORS with configured origins', () => {
  const t = useTestApp({ corsOrigins: ['https://bh.example.com'] });

  it('allows the configured origin and no other', async () => {
    const good = await request(t.app).post('/graphql').set('Origin', 'https://bh.example.com').send({ query: '{ __typename }' });
    expect(good.headers['access-control-allow-origin']).toBe('https://bh.example.com');
    const bad = await request(t.app).post('/graphql').set('Origin', 'https://evil.example').send({ query: '{ __typename }' });
    expect(bad.headers['access-control-allow-origin']).not.toBe('https://evil.example');
  });
});
