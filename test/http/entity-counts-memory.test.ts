import request from 'supertest';
import { useTestApp } from '../helpers/app';

/**
 * A panel's counts are kept per path index (services/graph/entities.ts): asked again they come from memory, and a change
 * in the graph, which builds a new index, is seen at once by the next request that gets the new index.
 */
describe('entity panel counts kept per index', () => {
  const t = useTestApp();
  const D = 'S-1-5-21-8';
  const get = (path: string) => request(t.app).get(path).set('Authorization', `Bearer ${t.adminJwt}`);
  const counts = async (kind: string, id: string) => {
    const res = await get(`/api/v2/${kind}/${id}?counts=true`);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  };
  const gqlCounts = async (id: string) => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send({ query: 'query ($id: String!) { entity(objectId: $id) { counts { list count } } }', variables: { id } });
    expect(res.body.errors).toBeUndefined();
    return Object.fromEntries(res.body.data.entity.counts.map((c: { list: string; count: number }) => [c.list, c.count]));
  };

  beforeAll(async () => {
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes([
        { objectid: `${D}-512`, kinds: ['Base', 'Group'], properties: { name: 'ADMINS@CORP', domainsid: D } },
        { objectid: `${D}-1001`, kinds: ['Base', 'User'], properties: { name: 'A@CORP', domainsid: D } },
        { objectid: `${D}-1002`, kinds: ['Base', 'User'], properties: { name: 'B@CORP', domainsid: D } },
      ]);
      await w.upsertEdges([{ start: `${D}-1001`, end: `${D}-512`, kind: 'MemberOf', properties: {} }]);
    });
    await t.infra.graphIndex.invalidate();
  });

  it('answers the same counts again from memory, and the new counts once the graph changed', async () => {
    const first = await counts('groups', `${D}-512`);
    expect(first.members).toBe(1);
    expect(await counts('groups', `${D}-512`)).toEqual(first);
    expect((await gqlCounts(`${D}-512`)).members).toBe(1);

    await t.infra.graphStore.write((w) => w.upsertEdges([{ start: `${D}-1002`, end: `${D}-512`, kind: 'MemberOf', properties: {} }]));
    await t.infra.graphIndex.invalidate();
    const after = await counts('groups', `${D}-512`);
    expect(after.members).toBe(2);
    expect((await gqlCounts(`${D}-512`)).members).toBe(2);
    // The member's own panel: a node asked about for the first time under the new index.
    expect((await counts('users', `${D}-1002`)).groupMembership).toBe(1);
  });

  it('keeps one panel per node and kind: a group and a user asked in turn each keep their own', async () => {
    const group = await counts('groups', `${D}-512`);
    const user = await counts('users', `${D}-1001`);
    expect(await counts('groups', `${D}-512`)).toEqual(group);
    expect(await counts('users', `${D}-1001`)).toEqual(user);
    expect(group).not.toEqual(user);
  });
});
