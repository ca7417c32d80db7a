import request from 'supertest';
import { expectWrapper, useTestApp } from '../helpers/app';
import { GOLDEN_DFM_COUNTS, GOLDEN_INPUT } from '../helpers/fixtures';
import { type ApiToken, signed } from '../helpers/app';
import { ingestAsAdmin } from '../helpers/upload';

const T = 'S-1-5-21-3130019616-2776909439-2417379446'; // TESTLAB.LOCAL
const DFM = `${T}-1105`;

describe('entities, search and inventories', () => {
  const t = useTestApp();
  let token: ApiToken;
  const get = (path: string) => signed(t.app, token, 'GET', path);
  const gql = (query: string, variables: Record<string, unknown> = {}) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${t.adminJwt}`).send({ query, variables });

  beforeAll(async () => {
    token = await ingestAsAdmin(t, [...GOLDEN_INPUT]);
  });

  describe('GraphQL entity', () => {
    it('shows a user with the same counts as the user endpoint, every list countable and paged', async () => {
      const res = await gql(
        `query ($id: String!) { entity(objectId: $id) { kind type lists counts { list count }
           list(name: adminRights) { totalCount nodes { name label } }
           graph(name: adminRights) { nodes { objectId label } edges { kind source target } } } }`,
        { id: DFM },
      );
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const e = res.body.data.entity;
      expect(e.kind).toBe('User');
      expect(e.type).toBe('users');
      const counts = Object.fromEntries(e.counts.map((c: { list: string; count: number }) => [c.list, c.count]));
      // The same figures graph.test.ts asserts for endpoint 6 (computed by the dedicated user traversals).
      expect(counts).toEqual(GOLDEN_DFM_COUNTS);
      expect(e.list.totalCount).toBe(1);
      expect(e.list.nodes[0].label).toBe('Computer');
      expect(e.graph.nodes.map((n: { objectId: string }) => n.objectId)).toContain(DFM);
      expect(e.graph.edges.map((x: { kind: string }) => x.kind)).toContain('AdminTo');
    });

    it('shows a domain, a group and a computer with their panels', async () => {
      const res = await gql(
        `query ($d: String!, $g: String!) {
        d: entity(objectId: $d) { kind counts { list count } }
        g: entity(objectId: $g, kind: "Group") { kind list(name: members, limit: 100) { totalCount } } }`,
        { d: T, g: `${T}-512` },
      );
      expect(res.body.errors).toBeUndefined();
      const d = Object.fromEntries(res.body.data.d.counts.map((c: { list: string; count: number }) => [c.list, c.count]));
      expect(res.body.data.d.kind).toBe('Domain');
      expect(d.users).toBeGreaterThan(0);
      expect(d.computers).toBeGreaterThan(0);
      expect(res.body.data.g.list.totalCount).toBeGreaterThan(0);
    });

    it('fails alone: an unknown node is an error beside the other fields, not a blank answer', async () => {
      const res = await gql(`{ ok: graphKinds(category: NODE) missing: entity(objectId: "S-1-0-0-404") { kind } }`);
      expect(res.status).toBe(200);
      expect(res.body.data.missing).toBeNull();
      expect(res.body.data?.ok ?? null).toEqual(expect.arrayContaining(['User', 'Computer']));
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });

    it('rejects a list the kind has not', async () => {
      const res = await gql(`query ($id: String!) { entity(objectId: $id) { list(name: members) { totalCount } } }`, { id: DFM });
      expect(res.body.errors[0].message).toMatch(/has no list "members"/);
    });
  });

  describe('REST entity routes', () => {
    it.each([
      ['groups', `${T}-512`, ['members', 'memberships', 'controllers', 'sessions']],
      [
        'domains',
        T,
        ['users', 'groups', 'computers', 'ous', 'gpos', 'controllers', 'inbound-trusts', 'outbound-trusts', 'dc-syncers', 'linked-gpos'],
      ],
      ['users', DFM, ['sessions', 'memberships', 'admin-rights', 'controllers', 'controllables', 'sql-admin-rights']],
    ])('/api/v2/%s/{id} and its lists answer in BloodHound’s envelopes', async (type, id, lists) => {
      const info = await get(`/api/v2/${type}/${id}`);
      expect(info.status).toBe(200);
      expect(info.body.data.props.objectid).toBe(id);
      for (const l of lists) {
        const res = await get(`/api/v2/${type}/${id}/${l}?limit=5`);
        expect([l, res.status]).toEqual([l, 200]);
        expect(res.body).toEqual({ count: expect.any(Number), skip: 0, limit: 5, data: expect.any(Array) });
      }
    });

    it('counts agree with the lists', async () => {
      const info = await get(`/api/v2/groups/${T}-512`);
      const members = await get(`/api/v2/groups/${T}-512/members?limit=1000`);
      expect(members.body.count).toBe(info.body.data.members);
      expect(members.body.data).toHaveLength(info.body.data.members);
    });

    it('answers type=graph with the bare Graph, and 400 where BloodHound has no graph', async () => {
      const g = await get(`/api/v2/groups/${T}-512/members?type=graph`);
      expect(g.status).toBe(200);
      expect(Object.keys(g.body).some((k) => k.startsWith('rel_'))).toBe(true);
      expect(expectWrapper(await get(`/api/v2/domains/${T}/users?type=graph`), 400).message).toMatch(/not supported/);
    });

    it('404 for a node of another kind or unknown id, 400 for bad paging', async () => {
      expectWrapper(await get(`/api/v2/computers/${DFM}`), 404);
      expectWrapper(await get(`/api/v2/gpos/NOPE`), 404);
      expectWrapper(await get(`/api/v2/groups/${T}-512/members?skip=-1`), 400);
      expectWrapper(await get(`/api/v2/groups/${T}-512/members?type=count`), 400);
      expectWrapper(await request(t.app).get(`/api/v2/groups/${T}-512/members`), 401);
    });

    it('serves /api/v2/azure/{entity_type} and rejects unknown types and lists', async () => {
      expect(expectWrapper(await get('/api/v2/azure/spaceships?object_id=X'), 400).message).toMatch(/entity_type/);
      expectWrapper(await get('/api/v2/azure/users'), 400);
      expectWrapper(await get('/api/v2/azure/users?object_id=NOPE'), 404);
      expect(expectWrapper(await get('/api/v2/azure/users?object_id=NOPE&related_entity_type=warp'), 400).message).toMatch(
        /related_entity_type/,
      );
    });
  });

  describe('search and inventories', () => {
    it('finds by name prefix, object id prefix and contains, with a kinds filter', async () => {
      const byName = await get('/api/v2/search?q=dfm');
      expect(byName.status).toBe(200);
      expect(byName.body.data[0]).toMatchObject({ objectid: DFM, name: 'DFM@TESTLAB.LOCAL', type: 'User' });
      const byId = await get(`/api/v2/search?q=${DFM.toLowerCase()}`);
      expect(byId.body.data[0].objectid).toBe(DFM);
      const contains = await get('/api/v2/search?q=testlab.local&mode=contains&type=Computer&limit=100');
      expect(contains.body.count).toBeGreaterThan(0);
      expect(contains.body.data.every((n: { type: string }) => n.type === 'Computer')).toBe(true);
      // LIKE wildcards in the term match themselves.
      expect((await get('/api/v2/search?q=%25')).body).toMatchObject({ count: 0, data: [] });
      const gs = await get('/api/v2/graph-search?query=dfm');
      // BloodHound's flat graph map: styled nodes keyed by node id, the object id in each node's data.
      expect(Object.values(gs.body.data).map((n) => (n as { data: { objectid: string } }).data.objectid)).toContain(DFM);
    });

    it('rejects bad search input with 400', async () => {
      expectWrapper(await get('/api/v2/search'), 400);
      expectWrapper(await get('/api/v2/search?q=%20'), 400);
      expectWrapper(await get(`/api/v2/search?q=${'a'.repeat(300)}`), 400);
      expectWrapper(await get('/api/v2/search?q=a&type=bad%20kind'), 400);
      expectWrapper(await get('/api/v2/search?q=a&limit=x'), 400);
    });

    it('lists domains, kinds, version and features', async () => {
      const d = await get('/api/v2/available-domains');
      expect(d.body.data).toEqual(expect.arrayContaining([{ type: 'active-directory', name: 'TESTLAB.LOCAL', id: T, collected: true }]));
      const k = await get('/api/v2/graphs/kinds');
      expect(k.body.data.kinds).toEqual(expect.arrayContaining(['User', 'MemberOf']));
      expect((await get('/api/v2/graphs/kinds?type=edge')).body.data.kinds).not.toContain('User');
      const v = await get('/api/version');
      expect(v.body.data).toMatchObject({ API: { current_version: 'v2' }, server_version: expect.stringMatching(/^v\d/) });
      const f = await get('/api/v2/features');
      expect(f.body.data[0]).toMatchObject({ key: expect.any(String), enabled: expect.any(Boolean), user_updatable: false });
    });
  });
});
