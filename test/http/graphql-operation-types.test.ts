import request from 'supertest';
import { createLogger } from '../../src/logger';
import { useTestApp } from '../helpers/app';
import { logSink } from '../helpers/log-sink';

/**
 * Operation types the schema has no root for (subscriptions) are the caller's mistake: a 400 in GraphQL's error
 * shape, logged as a client error, never a 500 with a stack trace.
 */
describe('GraphQL operation types that are not served', () => {
  const { stream, lines } = logSink();
  const t = useTestApp({}, { log: createLogger('info', stream) });

  const documents: [string, string | undefined][] = [
    ['subscription { x }', undefined],
    ['subscription { serviceInfo { version } }', undefined],
    ['subscription S { serviceInfo { version } } query Q { serviceInfo { version } }', 'S'],
    ['subscription S { serviceInfo { version } } query Q { serviceInfo { version } }', 'Q'],
  ];

  it.each(documents)('POST and GET %s (operation %s): 400, no error-level log line', async (query, operationName) => {
    const before = lines.length;
    for (const jwt of [undefined, t.adminJwt]) {
      let post = request(t.app).post('/graphql');
      let get = request(t.app)
        .get('/graphql')
        .query({ query, ...(operationName ? { operationName } : {}) })
        .set('Accept', 'application/json');
      if (jwt) {
        post = post.set('Authorization', `Bearer ${jwt}`);
        get = get.set('Authorization', `Bearer ${jwt}`);
      }
      for (const res of [await post.send({ query, operationName }), await get]) {
        expect(res.status).toBe(400);
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors[0].message).toMatch(/subscription operations are not served/i);
        expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
        expect(res.body.data).toBeUndefined();
      }
    }
    const fresh = lines.slice(before);
    expect(fresh.filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
    expect(fresh.join('\n')).not.toMatch(/"stack"/);
    // The access lines say 400 at info level: a client error.
    const access = fresh.map((l) => JSON.parse(l) as { level: number; msg: string; res?: { statusCode: number } });
    expect(access.filter((e) => e.msg === 'request completed' && e.res?.statusCode === 400 && e.level === 30)).toHaveLength(4);
  });

  it('still serves queries and mutations', async () => {
    const before = lines.length;
    const res = await request(t.app).post('/graphql').send({ query: '{ serviceInfo { version } }' });
    expect(res.status).toBe(200);
    expect(lines.slice(before).filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
  });
});
