import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { expectWrapper, signed, useTestApp } from '../helpers/app';
import { comparable, dumpGraph, edgeKey, kindsOf, SHARED_FIXTURES, TESTLAB, type GoldenGraph } from '../helpers/fixtures';
import { uploadJob, useUploads } from '../helpers/upload';

/**
 * AD sites as SharpHound writes them (sites.json, siteservers.json, sitesubnets.json: data first, meta last; see
 * test/fixtures/README.md) ingest in either key order, and BloodHound's site entity routes answer over them.
 */
const SITES = path.join(SHARED_FIXTURES, 'sharphound-v6-sites');
const SITE_FILES = ['sites', 'siteservers', 'sitesubnets'].map((f) => path.join(SITES, `${f}.json`));
const BASE_FILES = ['computers', 'groups', 'gpos'].map((f) => path.join(TESTLAB, `${f}.json`));

const T = 'S-1-5-21-3130019616-2776909439-2417379446';
const HQ = '4A5B9F2E-1C3D-4E6F-8A9B-0C1D2E3F4A51';
const BRANCH = '7E8F9A0B-2C3D-4E5F-9A6B-1C2D3E4F5A62';
const SERVER = 'B2C3D4E5-F6A7-4B8C-9D0E-1F2A3B4C5D63';
const SUBNET = 'C3D4E5F6-A7B8-4C9D-8E0F-2A3B4C5D6E74';
const PRIMARY = `${T}-1001`;
const TESTGPO = 'B39818AF-6349-401A-AE0A-E4972F5BF6D9';

/** The same file with "meta" before "data". */
const metaFirst = (file: string): [string, string] => {
  const { data, meta } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  return [path.basename(file), JSON.stringify({ meta, data })];
};

const plain = (g: GoldenGraph) => ({
  nodes: [...g.nodes].map(([id, n]) => [id, n.kinds, comparable(n.properties)]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  edges: [...g.edges].map(([k, p]) => [k, comparable(p)]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
});

describe('AD sites', () => {
  const t = useTestApp();
  const uploads = useUploads(t);
  const get = (p: string) => signed(t.app, uploads.token, 'GET', p);
  const clear = () => t.testDb.db.query('truncate graph_edges, graph_nodes');
  let asWritten: ReturnType<typeof plain>;

  it('the fixture is written as SharpHound writes it: data first, meta last', () => {
    for (const f of SITE_FILES)
      expect(fs.readFileSync(f, 'utf8')).toMatch(/^\{\s*"data": \[[\s\S]*"meta": \{[^}]*"version": 6\s*\}\s*\}\s*$/);
  });

  it('ingests the three file types with their kinds and edges', async () => {
    const id = await uploadJob(t.app, uploads.token, [...BASE_FILES, ...SITE_FILES]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    const g = await dumpGraph(t.testDb.db);
    // Sites are a Tier Zero default selector, and so is what GPO-links to them.
    expect(await kindsOf(t.testDb.db, HQ)).toEqual(['Base', 'Site', 'Tag_Tier_Zero']);
    expect(await kindsOf(t.testDb.db, TESTGPO)).toContain('Tag_Tier_Zero');
    expect(await kindsOf(t.testDb.db, SERVER)).toEqual(['Base', 'SiteServer']);
    expect(await kindsOf(t.testDb.db, SUBNET)).toEqual(['Base', 'SiteSubnet']);
    expect(g.nodes.get(SERVER)!.properties).toMatchObject({
      name: 'PRIMARY@TESTLAB.LOCAL',
      dnshostname: 'primary.testlab.local',
      serverreference: 'CN=PRIMARY,OU=DOMAIN CONTROLLERS,DC=TESTLAB,DC=LOCAL',
    });
    expect(g.nodes.get(SUBNET)!.properties).toMatchObject({ cn: '10.0.0.0/24', domainsid: T });
    // A null property is dropped, as for every SharpHound object.
    expect(g.nodes.get(BRANCH)!.properties).not.toHaveProperty('description');
    for (const [s, e, kind] of [
      [HQ, SERVER, 'Contains'],
      [HQ, SUBNET, 'Contains'],
      [SERVER, PRIMARY, 'ServerIs'],
      [`${T}-519`, HQ, 'GenericAll'],
      [`${T}-1105`, HQ, 'WriteGPLink'],
    ])
      expect(g.edges.has(edgeKey(s!, e!, kind!))).toBe(true);
    expect(g.edges.get(edgeKey(TESTGPO, HQ, 'GPLink'))).toMatchObject({ enforced: false, isacl: false });
    // The server's computer is the collected DC, not a placeholder.
    expect(await kindsOf(t.testDb.db, PRIMARY)).toContain('Computer');
    asWritten = plain(g);
  });

  it('ingests the same graph from meta-first files', async () => {
    await clear();
    const id = await uploadJob(t.app, uploads.token, [...BASE_FILES, ...SITE_FILES.map(metaFirst)]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    expect(plain(await dumpGraph(t.testDb.db))).toEqual(asWritten);
  });

  it('answers GET /api/v2/sites/{id} in BloodHound entity-info shape, with its controllers', async () => {
    const info = await get(`/api/v2/sites/${HQ}`);
    expect(info.status).toBe(200);
    expect(info.body.data.kinds).toEqual(expect.arrayContaining(['Base', 'Site']));
    expect(info.body.data.props).toMatchObject({
      objectid: HQ,
      name: 'DEFAULT-FIRST-SITE-NAME@TESTLAB.LOCAL',
      description: 'Headquarters',
    });
    expect(info.body.data.controllers).toBeGreaterThanOrEqual(3);
    const noCounts = await get(`/api/v2/sites/${HQ}?counts=false`);
    expect(noCounts.body.data).not.toHaveProperty('controllers');

    const list = await get(`/api/v2/sites/${HQ}/controllers`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(info.body.data.controllers);
    expect(list.body.data.map((n: { objectID: string }) => n.objectID)).toEqual(expect.arrayContaining([`${T}-519`, `${T}-1105`]));
    const graph = await get(`/api/v2/sites/${HQ}/controllers?type=graph`);
    expect(graph.status).toBe(200);
    expect(Object.keys(graph.body).some((k) => k.startsWith('rel_'))).toBe(true);
    expect(JSON.stringify(graph.body)).toContain(HQ);
  });

  it('answers the site server and subnet routes; the server and its computer name each other', async () => {
    const server = await get(`/api/v2/siteservers/${SERVER}`);
    expect(server.status).toBe(200);
    expect(server.body.data.props).toMatchObject({
      serverreferencecomputer: PRIMARY,
      serverreferencecomputername: 'PRIMARY.TESTLAB.LOCAL',
    });
    expect(server.body.data).toHaveProperty('controllers');
    expect((await get(`/api/v2/siteservers/${SERVER}/controllers`)).status).toBe(200);

    const computer = await get(`/api/v2/computers/${PRIMARY}`);
    expect(computer.body.data.props).toMatchObject({ siteservernode: SERVER, siteservernodename: 'PRIMARY@TESTLAB.LOCAL' });
    const other = await get(`/api/v2/computers/${T}-1104`);
    expect(other.body.data.props).not.toHaveProperty('siteservernode');

    const subnet = await get(`/api/v2/sitesubnets/${SUBNET}`);
    expect(subnet.status).toBe(200);
    expect(subnet.body.data.props).toMatchObject({ cn: '10.0.0.0/24', siteobject: expect.stringContaining('DEFAULT-FIRST-SITE-NAME') });
    expect((await get(`/api/v2/sitesubnets/${SUBNET}/controllers`)).body.count).toBe(0);
  });

  it('shows sites through GraphQL entity as the REST routes do', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .send({ query: `query ($id: String!) { entity(objectId: $id) { kind type counts { list count } } }`, variables: { id: HQ } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.entity).toMatchObject({ kind: 'Site', type: 'sites', counts: [{ list: 'controllers' }] });
  });

  it('finds sites by name, typed Site', async () => {
    const res = await get('/api/v2/search?q=default-first&type=Site');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ objectid: HQ, name: 'DEFAULT-FIRST-SITE-NAME@TESTLAB.LOCAL', type: 'Site' })]);
  });

  it('documents the six site routes in the served OpenAPI document', async () => {
    const doc = JSON.parse((await request(t.app).get('/api/v2/spec/openapi.json')).text) as { paths: Record<string, { get?: unknown }> };
    for (const type of ['sites', 'siteservers', 'sitesubnets'])
      for (const p of [`/api/v2/${type}/{object_id}`, `/api/v2/${type}/{object_id}/controllers`]) expect(doc.paths[p]?.get).toBeDefined();
  });

  it('404s an unknown id, and a node of another kind, in the error wrapper', async () => {
    expect(expectWrapper(await get('/api/v2/sites/00000000-0000-0000-0000-000000000404'), 404).message).toMatch(/No Site with object id/);
    expectWrapper(await get(`/api/v2/siteservers/${HQ}`), 404);
    expectWrapper(await get(`/api/v2/sitesubnets/${SERVER}/controllers`), 404);
  });

  it('fails a bad sites file on its own, named, with nothing of it written', async () => {
    // Enough good sites before the bad one that a batch of them is written before it is read.
    const good = Array.from({ length: 2500 }, (_, i) => ({
      ObjectIdentifier: `E5F6A7B8-C9D0-4E1F-8A2B-${String(i).padStart(12, '0')}`,
      Properties: { name: `SITE-${i}@TESTLAB.LOCAL` },
      Aces: [],
    }));
    const bad = JSON.stringify({
      data: [...good, { Properties: { name: 'NO-ID@TESTLAB.LOCAL' }, Aces: [] }],
      meta: { methods: 46067, type: 'sites', count: 2, version: 6 },
    });
    const id = await uploadJob(t.app, uploads.token, [
      ['20260101000000_sites.json', bad],
      ['other.json', '{"data":[],"meta":{"type":"siteservers","version":6}}'],
    ]);
    await t.services.datapipe.drain();
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 8, total_files: 2, failed_files: 1 });
    expect(job.status_message).toMatch(/20260101000000_sites\.json: data item 2500: an object has no ObjectIdentifier/);
    const [{ n }] = await t.testDb.db.query<{ n: number }>(`select count(*)::int as n from graph_nodes where objectid like 'E5F6A7B8-%'`);
    expect(n).toBe(0);
    expect((await get(`/api/v2/sites/${HQ}`)).status).toBe(200);
  });
});
