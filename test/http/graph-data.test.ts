import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { TESTLAB_FILES } from '../helpers/fixtures';
import { inDomain, ingestAsAdmin, sharphound } from '../helpers/upload';

/**
 * The graph's data as BloodHound users manage it, through the real stack: TESTLAB uploaded and analysed by the data
 * pipeline, then data quality history, edge explanations and clearing over REST.
 */
const D = 'S-1-5-21-3130019616-2776909439-2417379446';
const DCSYNC_USER = `${D}-2122`;
// A small domain of our own with an inherited ACE: group G's GenericAll, defined on OU-A, inherited by the user in
// OU-B below it (TESTLAB's files predate inheritance hashes).
const X = 'S-1-5-21-900-900-900';
const x = inDomain('X.LOCAL', X);
const [OU_A, OU_B] = ['AAAAAAAA-0000-0000-0000-00000000000A', 'BBBBBBBB-0000-0000-0000-00000000000B'];
const INHERITED_FILES: [string, string][] = [
  [
    'x-ous.json',
    sharphound('ous', [
      { ObjectIdentifier: OU_A, Properties: x('OU-A'), InheritanceHashes: ['H1'], Aces: [] },
      { ObjectIdentifier: OU_B, Properties: x('OU-B'), ContainedBy: { ObjectIdentifier: OU_A, ObjectType: 'OU' }, Aces: [] },
    ]),
  ],
  [
    'x-users.json',
    sharphound('users', [
      {
        ObjectIdentifier: `${X}-1001`,
        Properties: x('U'),
        ContainedBy: { ObjectIdentifier: OU_B, ObjectType: 'OU' },
        Aces: [{ PrincipalSID: `${X}-2001`, PrincipalType: 'Group', RightName: 'GenericAll', IsInherited: true, InheritanceHash: 'H1' }],
      },
    ]),
  ],
];

describe('graph data: data quality, explanations, clear-database', () => {
  const t = useTestApp();
  const get = (url: string) => request(t.app).get(url).set('Authorization', `Bearer ${t.adminJwt}`);
  const idOf = async (objectId: string) => (await t.infra.graphStore.nodeByObjectId(objectId))!.id;

  beforeAll(async () => {
    await ingestAsAdmin(t, [...TESTLAB_FILES, ...INHERITED_FILES]);
  });

  it('records data quality per domain and per platform after analysis, answered over time ranges', async () => {
    const res = await get(`/api/v2/ad-domains/${D.toLowerCase()}/data-quality-stats`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, skip: 0, limit: 1000 });
    const row = res.body.data[0];
    expect(row).toMatchObject({ domain_sid: D, users: expect.any(Number), groups: expect.any(Number), gpos: 7, ous: 2 });
    expect(row.computers).toBeGreaterThanOrEqual(4);
    expect(row.users).toBeGreaterThan(10);
    expect(row.acls).toBeGreaterThan(0);
    expect(row.relationships).toBeGreaterThan(row.acls);
    expect(row).toHaveProperty('session_completeness');
    expect(row).toHaveProperty('local_group_completeness');
    expect(typeof row.run_id).toBe('string');

    const platform = await get('/api/v2/platform/ad/data-quality-stats');
    expect(platform.body.data[0]).toMatchObject({ domains: expect.any(Number), computers: expect.any(Number) });
    expect(platform.body.data[0]).not.toHaveProperty('domain_sid');

    // A window that ends before the run finds nothing; one around it finds the row.
    const before = await get(`/api/v2/ad-domains/${D}/data-quality-stats?end=2000-01-01T00:00:00Z&start=1999-01-01T00:00:00Z`);
    expect(before.body).toMatchObject({ count: 0, data: [] });
    const after = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`/api/v2/ad-domains/${D}/data-quality-stats?end=${after}&sort_by=-created_at&limit=5`)).body.count).toBe(1);
  });

  it.each([
    ['/api/v2/platform/gcp/data-quality-stats', /invalid platform id specified in url: gcp/],
    [`/api/v2/ad-domains/${D}/data-quality-stats?sort_by=users`, /not sortable/],
    [`/api/v2/ad-domains/${D}/data-quality-stats?start=yesterday`, /not a valid RFC-3339 time/],
    [`/api/v2/ad-domains/${D}/data-quality-stats?limit=5000`, /limit must be between/],
  ])('refuses %s with a 400 that says why', async (url, message) => {
    expect(expectWrapper(await get(url), 400).message).toMatch(message);
  });

  it('answers completeness over the whole graph', async () => {
    const res = await get('/api/v2/completeness');
    expect(res.status).toBe(200);
    for (const k of ['SessionCompleteness', 'LocalGroupCompleteness']) {
      expect(res.body.data[k]).toBeGreaterThanOrEqual(0);
      expect(res.body.data[k]).toBeLessThanOrEqual(1);
    }
  });

  it('explains a DCSync edge by the GetChanges and GetChangesAll it was derived from', async () => {
    const [s, e] = [await idOf(DCSYNC_USER), await idOf(D)];
    const res = await get(`/api/v2/graphs/edge-composition?source_node=${s}&target_node=${e}&edge_type=DCSync`);
    expect(res.status).toBe(200);
    const kinds = res.body.data.edges.map((x: { kind: string }) => x.kind).sort();
    expect(kinds).toEqual(['GetChanges', 'GetChangesAll']);
    expect(res.body.data.nodes[String(s)]).toMatchObject({ objectId: DCSYNC_USER, kind: 'User' });
    // An edge analysis did not derive has no composition; one that does not exist is a 404; a bad id a 400.
    const raw = await get(`/api/v2/graphs/edge-composition?source_node=${s}&target_node=${e}&edge_type=GetChanges`);
    expect(raw.body.data).toEqual({ nodes: {}, edges: [] });
    expect(
      expectWrapper(await get(`/api/v2/graphs/edge-composition?source_node=${s}&target_node=${s}&edge_type=DCSync`), 404).message,
    ).toMatch(/No DCSync edge/);
    expectWrapper(await get('/api/v2/graphs/edge-composition?source_node=x&target_node=1&edge_type=DCSync'), 400);
    expectWrapper(await get(`/api/v2/graphs/relay-targets?source_node=${s}&target_node=${e}&edge_type=DCSync`), 400);
  });

  it('follows an inherited ACE up its containers to the one whose ACL defines it (acl-inheritance)', async () => {
    const [s, e, kind] = [await idOf(`${X}-2001`), await idOf(`${X}-1001`), 'GenericAll'];
    const res = await get(`/api/v2/graphs/acl-inheritance?source_node=${s}&target_node=${e}&edge_type=${kind}`);
    expect(res.status).toBe(200);
    const edges = res.body.data.edges as { source: string; target: string; kind: string }[];
    // The inherited ACE, then Contains from the container that defines it (OU-A) down to the target.
    const [a, b] = [await idOf(OU_A), await idOf(OU_B)];
    expect(edges.map((x) => [x.source, x.kind, x.target])).toEqual([
      [String(s), 'GenericAll', String(e)],
      [String(a), 'Contains', String(b)],
      [String(b), 'Contains', String(e)],
    ]);
  });

  it("lists a domain's certificate escalations (none in TESTLAB) and 404s for an unknown domain", async () => {
    expect((await get(`/api/v2/domains/${D}/adcs-escalations`)).body).toMatchObject({ count: 0, data: [] });
    expectWrapper(await get('/api/v2/domains/S-1-5-21-1-2-3/adcs-escalations'), 404);
  });

  it('lists the source kinds', async () => {
    expect((await get('/api/v2/graphs/source-kinds')).body.data.kinds).toEqual([
      { id: 1, name: 'Base' },
      { id: 2, name: 'AZBase' },
    ]);
  });

  it('clears the database for administrators only, refusing empty or contradictory requests', async () => {
    const user = await userWithRole(t, 'User');
    const post = (jwt: string, body: object) =>
      request(t.app).post('/api/v2/clear-database').set('Authorization', `Bearer ${jwt}`).send(body);
    expect((await post(user.jwt, { deleteCollectedGraphData: true })).status).toBe(403);
    expect(expectWrapper(await post(t.adminJwt, {}), 400).message).toBe('please select something to delete');
    expect(expectWrapper(await post(t.adminJwt, { deleteCollectedGraphData: true, deleteSourceKinds: [1] }), 400).message).toMatch(
      /not both/,
    );
    expect(expectWrapper(await post(t.adminJwt, { deleteSourceKinds: [99] }), 400).message).toMatch(/source kind id 99 not found/);
    expectWrapper(await post(t.adminJwt, { deleteSourceKinds: 'all' }), 400);
    expect((await t.infra.graphStore.counts()).nodes).toBeGreaterThan(0);

    // Relationships of a kind, then the data quality history.
    expect((await post(t.adminJwt, { deleteRelationships: ['HasSession'] })).status).toBe(204);
    const sessions = await t.testDb.db.query(
      `select 1 from graph_edges e join graph_kinds k on k.id = e.kind_id where k.name = 'HasSession'`,
    );
    expect(sessions).toEqual([]);
    expect((await post(t.adminJwt, { deleteDataQualityHistory: true, deleteFileIngestHistory: true })).status).toBe(204);
    expect((await get(`/api/v2/ad-domains/${D}/data-quality-stats`)).body.count).toBe(0);
    expect((await get('/api/v2/file-upload')).body.count).toBe(0);

    // The whole graph: gone in one transaction, and the path index follows (the user's panel is a 404).
    expect((await get(`/api/v2/users/${DCSYNC_USER}`)).status).toBe(200);
    expect((await post(t.adminJwt, { deleteCollectedGraphData: true })).status).toBe(204);
    expect(await t.infra.graphStore.counts()).toEqual({ nodes: 0, edges: 0 });
    expect((await get(`/api/v2/users/${DCSYNC_USER}`)).status).toBe(404);
    expect(await t.testDb.db.query('select 1 from graph_edge_sources')).toEqual([]);
  });
});
