import request from 'supertest';
import { useTestApp } from '../helpers/app';

/**
 * Cypher queries run in turns of their caller's costly-work gate, like large GraphQL fields: while a caller's turns
 * are all taken, its next query waits (here until its deadline), so one user's queries cannot take every core and
 * connection from the others; another caller's query goes on.
 */
describe('Cypher queries take turns per caller', () => {
  const t = useTestApp({ costlyWork: { perCaller: 1, total: 2 } });
  const cypher = (jwt: string, wait: number) =>
    request(t.app)
      .post('/api/v2/graphs/cypher')
      .set('Authorization', `Bearer ${jwt}`)
      .set('Prefer', `wait=${wait}`)
      .send({ query: 'RETURN 1 AS n' });

  it('waits for a turn of its caller, and runs once the turn is free', async () => {
    const self = await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${t.adminJwt}`);
    const userId = self.body.data.id as string;
    const held = await t.services.costlyWork.enter(`user:${userId}`);
    try {
      const waited = await cypher(t.adminJwt, 1);
      expect([429, 504]).toContain(waited.status);
      expect(waited.body.errors[0].message).toMatch(/turn|deadline/);
    } finally {
      held();
    }
    const ran = await cypher(t.adminJwt, 30);
    expect(ran.status).toBe(200);
    expect(ran.body.data.literals).toEqual([{ key: 'n', value: 1 }]);
  });
});
