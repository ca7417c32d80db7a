import request from 'supertest';
import { expectWrapper, userWithRole, useTestApp } from '../helpers/app';
import { GOLDEN_INPUT } from '../helpers/fixtures';
import { ingestAsAdmin } from '../helpers/upload';

const T = 'S-1-5-21-3130019616-2776909439-2417379446'; // TESTLAB.LOCAL
const DFM = `${T}-1105`;

describe('POST /api/v2/graphs/cypher on the golden TESTLAB graph', () => {
  const t = useTestApp();
  const cypher = (body: object, jwt = t.adminJwt) =>
    request(t.app).post('/api/v2/graphs/cypher').set('Authorization', `Bearer ${jwt}`).send(body);

  beforeAll(async () => {
    await ingestAsAdmin(t, GOLDEN_INPUT);
  });

  it('answers a node query in BloodHound’s shape: nodes keyed by id, no properties unless asked', async () => {
    const res = await cypher({ query: `MATCH (u:User {objectid: '${DFM}'}) RETURN u` });
    expect(res.status).toBe(200);
    const ids = Object.keys(res.body.data.nodes);
    expect(ids).toHaveLength(1);
    expect(res.body.data).toEqual({
      nodes: {
        [ids[0]!]: {
          label: 'DFM@TESTLAB.LOCAL',
          kind: 'User',
          kinds: expect.arrayContaining(['Base', 'User']),
          objectId: DFM,
          isTierZero: false,
          isOwnedObject: false,
          lastSeen: expect.any(String),
        },
      },
      edges: [],
      literals: [],
    });
  });

  it('draws paths: every node and edge of a shortest path, with include_properties the sorted keys', async () => {
    const res = await cypher({
      query: `MATCH p = shortestPath((u:User {objectid: '${DFM}'})-[:MemberOf|AdminTo|HasSession*1..]->(g:Group)) WHERE g.objectid ENDS WITH '-512' RETURN p`,
      include_properties: true,
    });
    expect(res.status).toBe(200);
    const { nodes, edges, node_keys } = res.body.data;
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) {
      expect(nodes[e.source]).toBeDefined();
      expect(nodes[e.target]).toBeDefined();
      expect(e).toEqual({
        source: expect.any(String),
        target: expect.any(String),
        label: e.kind,
        kind: expect.any(String),
        lastSeen: expect.any(String),
        properties: expect.any(Object),
      });
    }
    expect(node_keys).toEqual([...node_keys].sort());
    expect(Object.values(nodes).some((n: any) => n.isTierZero)).toBe(true);
  });

  it('returns scalars as literals', async () => {
    const res = await cypher({ query: 'MATCH (u:User) RETURN count(u) AS users' });
    expect(res.status).toBe(200);
    expect(res.body.data.literals).toEqual([{ key: 'users', value: expect.any(Number) }]);
  });

  it('answers 404 "resource not found" when nothing matches, as BloodHound', async () => {
    const res = await cypher({ query: "MATCH (u:User) WHERE u.name = 'NOBODY' RETURN u" });
    expect(expectWrapper(res, 404).message).toBe('resource not found');
  });

  it('names line, column and what was expected for a syntax error', async () => {
    const res = await cypher({ query: 'MATCH (n\nRETURN n' });
    const err = expectWrapper(res, 400);
    expect(err.context).toBe('cypher');
    expect(err.message).toMatch(/^Invalid input 'RETURN': expected .*'\)'.* \(line 2, column 1 \(offset: 9\)\)$/);
  });

  it.each([
    'CREATE (n:User {name: "x"}) RETURN n',
    'MATCH (n) DETACH DELETE n',
    'MATCH (n) SET n.owned = true RETURN n',
    "MERGE (n:User {name: 'x'})",
    'MATCH (n) REMOVE n.name RETURN n',
  ])('refuses a writing query as read-only: %s', async (query) => {
    const err = expectWrapper(await cypher({ query }), 400);
    expect(err.message).toMatch(/Cypher here is read-only/);
  });

  it('refuses an unsupported construct by name', async () => {
    const err = expectWrapper(await cypher({ query: 'CALL db.labels() YIELD label RETURN label' }), 400);
    expect(err.message).toMatch(/^CALL db\.labels \(procedures\) is not supported/);
  });

  it('needs graphdb/Read', async () => {
    const upload = await userWithRole(t, 'Upload-Only');
    expectWrapper(await cypher({ query: 'MATCH (n) RETURN n LIMIT 1' }, upload.jwt), 403);
    const reader = await userWithRole(t, 'Read-Only');
    expect((await cypher({ query: 'MATCH (n) RETURN n LIMIT 1' }, reader.jwt)).status).toBe(200);
  });

  it('expands BloodHound’s composite kinds: AD_ATTACK_PATHS is AD’s pathfinding kinds', async () => {
    const composite = await cypher({
      query: `MATCH (u:User {objectid: '${DFM}'})-[r:AD_ATTACK_PATHS]->(x) RETURN type(r) AS kind ORDER BY kind`,
    });
    const listed = await cypher({
      query: `MATCH (u:User {objectid: '${DFM}'})-[r:MemberOf|HasSession|AdminTo|GenericAll]->(x) RETURN type(r) AS kind ORDER BY kind`,
    });
    expect(composite.status).toBe(200);
    expect(composite.body.data.literals.map((l: { value: string }) => l.value)).toEqual(expect.arrayContaining(['MemberOf']));
    expect(composite.body.data.literals).toEqual(expect.arrayContaining(listed.body.data.literals));
    const azure = await cypher({ query: `MATCH (u:User {objectid: '${DFM}'})-[r:AZ_ATTACK_PATHS]->(x) RETURN r` });
    expect(azure.status).toBe(404);
  });

  it('finds Tier Zero the ways BloodHound users write it: the tag kind and system_tags', async () => {
    const byKind = await cypher({ query: 'MATCH (n:Tag_Tier_Zero) RETURN n.objectid AS id ORDER BY id' });
    const byTags = await cypher({
      query: "MATCH (n) WHERE COALESCE(n.system_tags, '') CONTAINS 'admin_tier_0' RETURN n.objectid AS id ORDER BY id",
    });
    expect(byKind.status).toBe(200);
    expect(byKind.body.data.literals.length).toBeGreaterThan(0);
    expect(byTags.body.data.literals).toEqual(byKind.body.data.literals);
    expect(byKind.body.data.literals).toContainEqual({ key: 'id', value: `${T}-512` });
  });

  it('maps a label zone onto its Tag_ kind, and the Owned label onto Tag_Owned and system_tags owned', async () => {
    const admin = { Authorization: `Bearer ${t.adminJwt}` };
    const label = await request(t.app).post('/api/v2/asset-group-tags').set(admin).send({ type: 'label', name: 'Owned' });
    expect(label.status).toBe(201);
    const sel = await request(t.app)
      .post(`/api/v2/asset-group-tags/${label.body.data.id}/selectors`)
      .set(admin)
      .send({ name: 'pwned', seeds: [{ type: 'objectid', value: DFM }] });
    expect(sel.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1100)); // memberships are read again after a second
    const owned = await cypher({ query: 'MATCH (n:Tag_Owned) RETURN n' });
    expect(owned.status).toBe(200);
    expect(Object.values(owned.body.data.nodes)).toEqual([
      expect.objectContaining({ objectId: DFM, isOwnedObject: true, kinds: expect.arrayContaining(['Tag_Owned']) }),
    ]);
    const tags = await cypher({ query: "MATCH (n:User) WHERE n.system_tags CONTAINS 'owned' RETURN n.objectid AS id" });
    expect(tags.body.data.literals).toEqual([{ key: 'id', value: DFM }]);
  });

  it('runs BloodHound’s epoch-second comparisons against datetime()', async () => {
    const res = await cypher({
      query: 'MATCH (u:User) WHERE u.enabled = true AND u.pwdlastset < (datetime().epochseconds - (90 * 86400)) RETURN count(u) AS stale',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.literals).toEqual([{ key: 'stale', value: expect.any(Number) }]);
  });

  it('cancels a query past the request deadline with 504, and the server goes on answering', async () => {
    const slow = cypher({ query: 'MATCH (a), (b), (c), (d) RETURN count(*)' }).set('Prefer', 'wait=1');
    const started = Date.now();
    const res = await slow;
    // The engine's own check or the request's deadline timer, whichever comes first, answers.
    expect(expectWrapper(res, 504).context).toMatch(/^(cypher|middleware)$/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await cypher({ query: 'MATCH (n:Domain) RETURN n' })).status).toBe(200);
  });

  it.each([
    ['a huge UNWIND range', 'UNWIND range(1, 100000000) AS x RETURN count(x)'],
    ['a huge collect', 'UNWIND range(1, 3000000) AS x RETURN collect([x, x]) AS all'],
  ])('refuses %s with the memory budget named (400)', async (_what, query) => {
    const err = expectWrapper(await cypher({ query }).set('Prefer', 'wait=20'), 400);
    expect(err.message).toMatch(/memory budget/);
  });

  it('refuses a query nested too deeply, and one too long, with 400', async () => {
    const deep = `RETURN ${'['.repeat(5000)}1${']'.repeat(5000)}`;
    expect(expectWrapper(await cypher({ query: deep }), 400).message).toMatch(/nested too deeply|characters/);
    expect(expectWrapper(await cypher({ query: `RETURN '${'x'.repeat(100_001)}'` }), 400).message).toMatch(/at most 100000 are accepted/);
  });

  it('caps the rows of an answer and names the cap', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send({ query: '{ cypher(query: "UNWIND range(1, 60000) AS x RETURN x") { truncated { limit cap } literals { key } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.cypher.truncated).toEqual([{ limit: 'rows', cap: 50000 }]);
    expect(res.body.data.cypher.literals).toHaveLength(50000);
  });

  it('answers over GraphQL with a typed result and parameters', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send({
        query: `query Q($q: String!, $p: JSON) { cypher(query: $q, parameters: $p, includeProperties: true) {
          nodes { id objectId label name kind kinds isTierZero isOwnedObject properties } edges { source target kind }
          literals { key value } columns rows } }`,
        variables: { q: 'MATCH (u:User {objectid: $id})-[r:MemberOf]->(g) RETURN u, r, g, g.name AS name', p: { id: DFM } },
      });
    expect(res.status).toBe(200);
    const c = res.body.data.cypher;
    expect(c.columns).toEqual(['u', 'r', 'g', 'name']);
    expect(c.nodes.find((n: { objectId: string }) => n.objectId === DFM)).toMatchObject({
      label: 'DFM@TESTLAB.LOCAL',
      kind: 'User',
      properties: expect.objectContaining({ objectid: DFM }),
    });
    expect(c.edges.length).toBe(c.rows.length);
    expect(c.edges.every((e: { kind: string }) => e.kind === 'MemberOf')).toBe(true);
    expect(c.literals.map((l: { key: string }) => l.key)).toEqual(c.rows.map(() => 'name'));
  });

  it('leaves the table out of an answer with a graph when asked (rows(unlessGraph: true)), not out of a scalar one', async () => {
    const gql = (q: string) =>
      request(t.app)
        .post('/graphql')
        .set('Authorization', `Bearer ${t.adminJwt}`)
        .send({
          query: 'query Q($q: String!) { cypher(query: $q) { nodes { id } all: rows lean: rows(unlessGraph: true) } }',
          variables: { q },
        });
    const graph = (await gql('MATCH (n:Domain) RETURN n')).body.data.cypher;
    expect(graph.nodes.length).toBeGreaterThan(0);
    expect(graph.all).toHaveLength(graph.nodes.length);
    expect(graph.lean).toEqual([]);
    const scalar = (await gql('MATCH (n:Domain) RETURN count(n) AS c')).body.data.cypher;
    expect(scalar.lean).toEqual(scalar.all);
    expect(scalar.lean).toHaveLength(1);
  });

  it('answers a syntax error over GraphQL as BAD_REQUEST with the position', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send({ query: '{ cypher(query: "MATCH (n RETURN n") { columns } }' });
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/line 1, column 10/), extensions: { code: 'BAD_REQUEST' } });
  });
});
