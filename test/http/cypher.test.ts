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
});
