import request from 'supertest';
import { expectWrapper, signed, userWithRole, useTestApp, type ApiToken } from '../helpers/app';
import { GOLDEN_DFM_COUNTS, GOLDEN_INPUT } from '../helpers/fixtures';
import { ingestAsAdmin, sharphound } from '../helpers/upload';

const T = 'S-1-5-21-3130019616-2776909439-2417379446'; // TESTLAB.LOCAL
const F = 'S-1-5-21-3084884204-958224920-2707782878'; // FOREST (a trusted domain)
const DFM = `${T}-1105`;

/** Additions so the entity lists have answers: nested groups with PowerShell remoting, foreign GPO controllers. */
const EXTRA = {
  groups: sharphound('groups', [
    {
      ObjectIdentifier: `${T}-9001`,
      Properties: { name: 'REMOTERS@TESTLAB.LOCAL', domain: 'TESTLAB.LOCAL', domainsid: T },
      Members: [{ ObjectIdentifier: `${T}-9002`, ObjectType: 'Group' }],
      Aces: [],
    },
    {
      ObjectIdentifier: `${T}-9002`,
      Properties: { name: 'NESTED REMOTERS@TESTLAB.LOCAL', domain: 'TESTLAB.LOCAL', domainsid: T },
      Members: [],
      Aces: [],
    },
    {
      ObjectIdentifier: `${F}-1200`,
      Properties: { name: 'GPO EDITORS@FOREST', domain: 'FOREST', domainsid: F },
      Members: [
        { ObjectIdentifier: `${F}-1106`, ObjectType: 'User' },
        { ObjectIdentifier: `${F}-1107`, ObjectType: 'User' },
      ],
      Aces: [],
    },
  ]),
  users: sharphound(
    'users',
    ['1105', '1106', '1107'].map((rid) => ({
      ObjectIdentifier: `${F}-${rid}`,
      Properties: { name: `FOREIGN${rid}@FOREST`, domain: 'FOREST', domainsid: F, enabled: true },
      Aces: [],
    })),
  ),
  computers: sharphound(
    'computers',
    [
      ['9100', 'SRV1', `${T}-9001`],
      ['9101', 'SRV2', `${T}-9002`],
    ].map(([rid, name, member]) => ({
      ObjectIdentifier: `${T}-${rid}`,
      Properties: { name: `${name}.TESTLAB.LOCAL`, domain: 'TESTLAB.LOCAL', domainsid: T },
      LocalGroups: [
        {
          Collected: true,
          Results: [{ ObjectIdentifier: member, ObjectType: 'Group' }],
          Name: `REMOTE MANAGEMENT USERS@${name}.TESTLAB.LOCAL`,
          ObjectIdentifier: `${T}-${rid}-580`,
        },
      ],
      Aces: [],
    })),
  ),
  gpos: sharphound('gpos', [
    {
      ObjectIdentifier: '11111111-2222-3333-4444-555555555555',
      Properties: { name: 'SHARED POLICY@TESTLAB.LOCAL', domain: 'TESTLAB.LOCAL', domainsid: T },
      Aces: [
        { PrincipalSID: `${F}-1105`, PrincipalType: 'User', RightName: 'GenericAll', IsInherited: false },
        { PrincipalSID: `${F}-1200`, PrincipalType: 'Group', RightName: 'WriteDacl', IsInherited: false },
        { PrincipalSID: `${T}-512`, PrincipalType: 'Group', RightName: 'GenericAll', IsInherited: false },
      ],
    },
  ]),
};

/** One row of an entity list: the node's object id, name and primary kind (every AD node is also Base). */
const row = (objectID: string, name: string, label: string) => ({ objectID, name, label, kinds: ['Base', label] });

/** A Graph-format answer (type=graph) as its sorted node object ids and sorted edge labels. */
function graphOf(body: Record<string, any>): { nodes: string[]; edges: string[] } {
  const items = Object.entries(body);
  return {
    nodes: items
      .filter(([k]) => !k.startsWith('rel_'))
      .map(([, v]) => v.data.objectid)
      .sort(),
    edges: items
      .filter(([k]) => k.startsWith('rel_'))
      .map(([, v]) => v.label.text)
      .sort(),
  };
}

describe('graph endpoints over REST (ingest → analysis → queries)', () => {
  const t = useTestApp();
  let token: ApiToken;
  const get = (path: string) => signed(t.app, token, 'GET', path);

  beforeAll(async () => {
    token = await ingestAsAdmin(t, [...GOLDEN_INPUT, ...Object.entries(EXTRA).map(([k, v]) => [`extra-${k}.json`, v] as [string, string])]);
  });

  it('ran ingest and analysis: the job completed and the pipeline is idle', async () => {
    const jobs = await get('/api/v2/file-upload');
    expect(jobs.status).toBe(200);
    expect(jobs.body).toMatchObject({
      count: 1,
      skip: 0,
      limit: 100,
      data: [{ status: 2, total_files: 12, failed_files: 0, status_message: '12 files ingested and analyzed' }],
    });
    const status = await get('/api/v2/datapipe/status');
    expect(status.body.data).toEqual({
      status: 'idle',
      analysis_requested: false,
      updated_at: expect.any(String),
      last_complete_analysis_at: expect.not.stringMatching(/^0001/),
      last_analysis_run_at: expect.not.stringMatching(/^0001/),
    });
  });

  describe('6: GET /api/v2/users/{object_id}', () => {
    it('returns kinds, properties and the user counts (computed independently from BloodHound’s analyzed graph)', async () => {
      const res = await get(`/api/v2/users/${DFM}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        kinds: ['Base', 'User'],
        props: expect.objectContaining({ objectid: DFM, name: 'DFM@TESTLAB.LOCAL', domainsid: T }),
        ...GOLDEN_DFM_COUNTS,
      });
      // 82 in BloodHound's graph, plus the synthetic GPO Domain Admins (which Administrator belongs to) control.
      const admin = await get(`/api/v2/users/${T}-500`);
      expect(admin.body.data).toMatchObject({ groupMembership: 10, controllables: 83, controllers: 5, psRemoteRights: 0 });
    });

    it.each(['count=false', 'counts=false', 'count=0', 'count=F'])('leaves the counts out with %s', async (q) => {
      const res = await get(`/api/v2/users/${DFM}?${q}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(['kinds', 'props']);
    });

    it('matches object ids case-insensitively (they are stored upper-cased)', async () => {
      expect((await get(`/api/v2/users/${DFM.toLowerCase()}?count=false`)).status).toBe(200);
    });

    it('answers 404 for an unknown id and for a node of another kind, 400 for a bad boolean', async () => {
      expect(expectWrapper(await get('/api/v2/users/S-1-5-21-1-2-3-4'), 404).context).toBe('users');
      expect(expectWrapper(await get(`/api/v2/users/${T}-512`), 404).message).toMatch(/No User with object id/);
      expect(expectWrapper(await get(`/api/v2/users/${DFM}?count=maybe`), 400).message).toMatch(/count is malformed/);
    });

    it('answers 401 without credentials and 403 without graphdb/Read', async () => {
      expectWrapper(await request(t.app).get(`/api/v2/users/${DFM}`), 401);
      const uploader = await userWithRole(t, 'Upload-Only');
      expectWrapper(await request(t.app).get(`/api/v2/users/${DFM}`).set('Authorization', `Bearer ${uploader.jwt}`), 403);
    });
  });

  describe('8: GET /api/v2/groups/{object_id}/ps-remote-rights', () => {
    it('lists computers reachable through nested membership, in the pagination envelope', async () => {
      const res = await get(`/api/v2/groups/${T}-9002/ps-remote-rights?sort_by=name`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 2,
        skip: 0,
        limit: 10,
        data: [row(`${T}-9100`, 'SRV1.TESTLAB.LOCAL', 'Computer'), row(`${T}-9101`, 'SRV2.TESTLAB.LOCAL', 'Computer')],
      });
      expect((await get(`/api/v2/groups/${T}-9001/ps-remote-rights`)).body.data.map((e: { name: string }) => e.name)).toEqual([
        'SRV1.TESTLAB.LOCAL',
      ]);
      expect((await get(`/api/v2/groups/${T}-512/ps-remote-rights`)).body).toEqual({ count: 0, skip: 0, limit: 10, data: [] });
    });

    it('pages and sorts', async () => {
      const desc = await get(`/api/v2/groups/${T}-9002/ps-remote-rights?sort_by=-name&skip=1&limit=1`);
      expect(desc.body).toMatchObject({ count: 2, skip: 1, limit: 1, data: [{ name: 'SRV1.TESTLAB.LOCAL' }] });
      expect((await get(`/api/v2/groups/${T}-9002/ps-remote-rights?limit=0`)).body).toEqual({ count: 2, skip: 0, limit: 0, data: [] });
      expect((await get(`/api/v2/groups/${T}-9002/ps-remote-rights?skip=5`)).body).toMatchObject({ count: 2, skip: 5, data: [] });
    });

    it('returns the paths as a Graph with type=graph', async () => {
      const res = await get(`/api/v2/groups/${T}-9002/ps-remote-rights?type=graph`);
      expect(res.status).toBe(200);
      const { nodes, edges } = graphOf(res.body);
      expect(nodes).toEqual([`${T}-9001`, `${T}-9002`, `${T}-9100`, `${T}-9101`].sort());
      expect(edges).toEqual(['CanPSRemote', 'CanPSRemote', 'MemberOf']);
    });

    it.each([
      ['skip=-1', /skip must be >= 0/],
      ['skip=x', /skip is malformed/],
      ['limit=1001', /limit must be at most 1000/],
      ['limit=-5', /limit must be >= 0/],
      ['sort_by=color', /sort_by column "color" is not sortable/],
      ['type=count', /type must be "list" or "graph"/],
      ['skip=1&skip=2', /skip must be given once/],
    ])('answers 400 for %s, naming the parameter', async (q, message) => {
      expect(expectWrapper(await get(`/api/v2/groups/${T}-9002/ps-remote-rights?${q}`), 400).message).toMatch(message);
    });

    it('answers 404 for an unknown id or a node that is not a group', async () => {
      expectWrapper(await get('/api/v2/groups/S-1-5-21-9-9-9-9/ps-remote-rights'), 404);
      expect(expectWrapper(await get(`/api/v2/groups/${DFM}/ps-remote-rights`), 404).message).toMatch(/No Group/);
    });
  });

  describe('11: GET /api/v2/domains/{object_id}/foreign-gpo-controllers', () => {
    it('lists principals of other domains that control the domain’s GPOs, directly or through a group', async () => {
      const res = await get(`/api/v2/domains/${T}/foreign-gpo-controllers?sort_by=objectid`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 4,
        skip: 0,
        limit: 10,
        data: [
          ...['1105', '1106', '1107'].map((rid) => row(`${F}-${rid}`, `FOREIGN${rid}@FOREST`, 'User')),
          row(`${F}-1200`, 'GPO EDITORS@FOREST', 'Group'),
        ],
      });
      // Domain Admins (same domain) also hold GenericAll on that GPO and are not listed.
    });

    it('sorts by label and pages', async () => {
      const res = await get(`/api/v2/domains/${T}/foreign-gpo-controllers?sort_by=label&sort_by=-objectid&limit=2`);
      expect(res.body.data.map((e: { objectID: string }) => e.objectID)).toEqual([`${F}-1200`, `${F}-1107`]);
    });

    it('returns the controlling edges as a Graph with type=graph', async () => {
      const res = await get(`/api/v2/domains/${T}/foreign-gpo-controllers?type=graph`);
      expect(graphOf(res.body).edges).toEqual(['GenericAll', 'MemberOf', 'MemberOf', 'WriteDacl']);
    });

    it('answers 404 for a node that is not a domain', async () => {
      expectWrapper(await get(`/api/v2/domains/${DFM}/foreign-gpo-controllers`), 404);
    });
  });

  describe('1: GET /api/v2/pathfinding (deprecated) and the shortest-path successor', () => {
    it('returns all shortest paths in the Graph format, with deprecation headers', async () => {
      const res = await get(`/api/v2/pathfinding?start_node=${T}-9002&end_node=${T}-9100`);
      expect(res.status).toBe(200);
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.link).toBe('</api/v2/graphs/shortest-path>; rel="successor-version"');
      expect(res.headers['path-count']).toBe('1');
      const graph = res.body.data as Record<string, any>;
      const edge = Object.entries(graph).find(([k]) => k.startsWith('rel_'));
      expect(Object.keys(graph)).toHaveLength(5); // 3 nodes, 2 edges
      expect(edge![1]).toMatchObject({
        color: '3a5464',
        label: { text: expect.stringMatching(/MemberOf|CanPSRemote/) },
        end2: { arrow: true },
        id1: expect.any(String),
        id2: expect.any(String),
      });
      const node = Object.values(graph).find((v) => v.data?.objectid === `${T}-9100`);
      expect(node).toEqual({
        color: '#E67873',
        data: expect.objectContaining({
          objectid: `${T}-9100`,
          name: 'SRV1.TESTLAB.LOCAL',
          kinds: ['Base', 'Computer'],
          nodetype: 'Computer',
        }),
        border: { color: 'black' },
        fontIcon: { text: 'fas fa-desktop' },
        label: { backgroundColor: 'rgba(255,255,255,0.9)', center: true, fontSize: 14, text: 'SRV1.TESTLAB.LOCAL' },
        size: 1,
      });
      for (const item of Object.values(graph).filter((v) => v.id1)) expect(graph[item.id1]).toBeDefined();
    });

    it('answers {data: {}} when there is no path', async () => {
      const res = await get(`/api/v2/pathfinding?start_node=${T}-9100&end_node=${T}-9002`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: {} });
    });

    it('answers 404 for an unknown node and 400 for a missing parameter', async () => {
      expectWrapper(await get(`/api/v2/pathfinding?start_node=NOPE&end_node=${T}-9100`), 404);
      expect(expectWrapper(await get(`/api/v2/pathfinding?start_node=${T}-9002`), 400).message).toBe('Missing query parameter: end_node.');
    });

    it('filters relationship kinds on the successor', async () => {
      const path = `/api/v2/graphs/shortest-path?start_node=${T}-9002&end_node=${T}-9100`;
      expect((await get(`${path}&relationship_kinds=in:MemberOf,CanPSRemote`)).headers['path-count']).toBe('1');
      // Without CanPSRemote the path runs through the computer's local group (kinds that are not traversable).
      // BloodHound's successor shape: {data: {nodes, edges}}; 404 when there is no path.
      const around = (await get(`${path}&relationship_kinds=nin:CanPSRemote`)).body.data as {
        nodes: Record<string, { objectId: string; kind: string }>;
        edges: { source: string; target: string; kind: string }[];
      };
      expect(around.edges.map((v) => v.kind).sort()).toEqual(['LocalToComputer', 'MemberOf', 'MemberOfLocalGroup']);
      for (const e of around.edges) expect(Object.keys(around.nodes)).toEqual(expect.arrayContaining([e.source, e.target]));
      expect(Object.values(around.nodes).map((n) => n.objectId)).toEqual(expect.arrayContaining([`${T}-9002`, `${T}-9100`]));
      expectWrapper(await get(`${path}&relationship_kinds=in:MemberOf`), 404);
      expect((await get(`${path}&only_traversable=true`)).headers['path-count']).toBe('1');
      expect(expectWrapper(await get(`${path}&relationship_kinds=MemberOf`), 400).message).toMatch(/in\|nin:Kind1,Kind2/);
    });
  });

  describe('14: PUT /api/v2/analysis', () => {
    it('answers 204, queues one run, and the run completes', async () => {
      const before = (await get('/api/v2/datapipe/status')).body.data.last_complete_analysis_at;
      const res = await signed(t.app, token, 'PUT', '/api/v2/analysis');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await t.services.datapipe.drain();
      const after = (await get('/api/v2/datapipe/status')).body.data;
      expect(after.status).toBe('idle');
      expect(new Date(after.last_complete_analysis_at).getTime()).toBeGreaterThan(new Date(before).getTime());
    });

    it('needs graphdb/Write: 403 for a Read-Only user, 401 without credentials', async () => {
      const ro = await userWithRole(t, 'Read-Only');
      expectWrapper(await request(t.app).put('/api/v2/analysis').set('Authorization', `Bearer ${ro.jwt}`), 403);
      expectWrapper(await request(t.app).put('/api/v2/analysis'), 401);
    });
  });

  describe('the same over GraphQL', () => {
    const gql = (query: string, variables?: object) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${t.adminJwt}`).send({ query, variables });

    it('answers user counts, entity lists and shortest paths', async () => {
      const res = await gql(
        `query($u: String!, $g: String!, $c: String!) {
          userEntity(objectId: $u) { node { name label } counts { sessions psRemoteRights controllers } }
          groupPSRemoteRights(objectId: $g, sortBy: [{ column: NAME, descending: true }]) { totalCount nodes { name } }
          shortestPaths(start: $g, end: $c) { pathCount truncated length }
          node(objectId: "nope") { id }
        }`,
        { u: DFM, g: `${T}-9002`, c: `${T}-9100` },
      );
      expect(res.body).toEqual({
        data: {
          userEntity: { node: { name: 'DFM@TESTLAB.LOCAL', label: 'User' }, counts: { sessions: 1, psRemoteRights: 1, controllers: 7 } },
          groupPSRemoteRights: { totalCount: 2, nodes: [{ name: 'SRV2.TESTLAB.LOCAL' }, { name: 'SRV1.TESTLAB.LOCAL' }] },
          shortestPaths: { pathCount: 1, truncated: false, length: 2 },
          node: null,
        },
      });
    });

    it('answers the list graphs of endpoints 8 and 11 as typed nodes and edges, the same as REST type=graph', async () => {
      const res = await gql(
        `query($g: String!, $d: String!) {
          groupPSRemoteRightsGraph(objectId: $g) { nodes { id objectId } edges { source target kind } }
          domainForeignGPOControllersGraph(objectId: $d) { nodes { objectId } edges { kind } }
        }`,
        { g: `${T}-9002`, d: T },
      );
      expect(res.status).toBe(200);
      const ps = res.body.data.groupPSRemoteRightsGraph;
      expect(ps.nodes.map((n: { objectId: string }) => n.objectId).sort()).toEqual(
        [`${T}-9001`, `${T}-9002`, `${T}-9100`, `${T}-9101`].sort(),
      );
      expect(ps.edges.map((e: { kind: string }) => e.kind).sort()).toEqual(['CanPSRemote', 'CanPSRemote', 'MemberOf']);
      // Every edge joins two of the graph's nodes.
      const ids = new Set(ps.nodes.map((n: { id: number }) => n.id));
      for (const e of ps.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
      const rest = graphOf((await get(`/api/v2/domains/${T}/foreign-gpo-controllers?type=graph`)).body);
      const gpo = res.body.data.domainForeignGPOControllersGraph;
      expect(gpo.nodes.map((n: { objectId: string }) => n.objectId).sort()).toEqual(rest.nodes);
      expect(gpo.edges.map((e: { kind: string }) => e.kind).sort()).toEqual(rest.edges);
    });

    it('reports a wrong kind as NOT_FOUND with status 404', async () => {
      const res = await gql(`{ userEntity(objectId: "${T}-512") { node { id } } }`);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });
});
