import request from 'supertest';
import { adminPost, expectWrapper, useTestApp } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

/** TESTLAB.LOCAL's disabled users, read from the fixture (users.json: Properties.enabled false). */
const DISABLED_USERS = ['GUEST@TESTLAB.LOCAL', 'KRBTGT@TESTLAB.LOCAL'];
const ESID = 'S-1-5-21-3130019616-2776909439-2417379446-2106';

/**
 * Zone selectors with a Cypher seed (BloodHound's seed type 2): checked on create and update, their returned nodes
 * the selector's members, previewed with BloodHound's preview-selectors, and Tier Zero's followed by analysis.
 */
describe('zones: Cypher seeds', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let label: number;

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    const res = await adminPost(t, '/api/v2/asset-group-tags')({ type: 2, name: 'Disabled users' });
    expect(res.status).toBe(201);
    label = res.body.data.id;
  });

  it('a Cypher seed selects the nodes its query returns; a bad query is a 400 naming where', async () => {
    const sel = adminPost(t, `/api/v2/asset-group-tags/${label}/selectors`);
    const res = await sel({ name: 'disabled', seeds: [{ type: 2, value: 'MATCH (u:User) WHERE u.enabled = false RETURN u' }] });
    expect(res.status).toBe(201);
    expect(res.body.data.seeds).toEqual([
      { selector_id: res.body.data.id, type: 2, value: 'MATCH (u:User) WHERE u.enabled = false RETURN u' },
    ]);
    const members = await request(t.app).get(`/api/v2/asset-group-tags/${label}/members?limit=100`).set(admin());
    expect(members.body.data.members.map((m: { name: string }) => m.name).sort()).toEqual(DISABLED_USERS);

    const bad = expectWrapper(await sel({ name: 'broken', seeds: [{ type: 'cypher', value: 'MATCH (u:User\nRETURN u' }] }), 400).message;
    expect(bad).toMatch(/^seeds\[0\]\.value: cypher is invalid: .*line 2/i);
    expectWrapper(await sel({ name: 'writes', seeds: [{ type: 'cypher', value: 'MATCH (u) DETACH DELETE u' }] }), 400);
    // an update is checked too, and a refused one changes nothing
    const id = res.body.data.id;
    const patch = (body: object) => request(t.app).patch(`/api/v2/asset-group-tags/${label}/selectors/${id}`).set(admin()).send(body);
    expectWrapper(await patch({ seeds: [{ type: 2, value: 'RETURN (' }] }), 400);
    expect((await request(t.app).get(`/api/v2/asset-group-tags/${label}/members?limit=100`).set(admin())).body.count).toBe(2);
    const narrowed = await patch({
      seeds: [{ type: 2, value: "MATCH (u:User) WHERE u.enabled = false AND u.name STARTS WITH 'GUEST' RETURN u" }],
    });
    expect(narrowed.status).toBe(200);
    const after = await request(t.app).get(`/api/v2/asset-group-tags/${label}/members?limit=100`).set(admin());
    expect(after.body.data.members.map((m: { name: string }) => m.name)).toEqual(['GUEST@TESTLAB.LOCAL']);
  });

  it('previews seeds as BloodHound answers POST /api/v2/asset-group-tags/preview-selectors, storing nothing', async () => {
    const preview = (body: object, q = '') => request(t.app).post(`/api/v2/asset-group-tags/preview-selectors${q}`).set(admin()).send(body);
    const res = await preview({ seeds: [{ type: 2, value: 'MATCH (u:User) WHERE u.enabled = false RETURN u' }], expansion: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data.members.map((m: { name: string }) => m.name).sort()).toEqual(DISABLED_USERS);
    expect(res.body.data.members[0]).toEqual({
      id: expect.any(Number),
      object_id: expect.stringMatching(/^S-1-5-21-/),
      environment_id: 'S-1-5-21-3130019616-2776909439-2417379446',
      primary_kind: 'User',
      name: expect.any(String),
      source: 1,
    });
    expect((await preview({ seeds: [{ type: 2, value: 'MATCH (n:Base) RETURN n' }] }, '?limit=3')).body.data.members).toHaveLength(3);
    const byId = await preview({ seeds: [{ type: 1, value: ESID }] });
    expect(byId.body.data.members.map((m: { object_id: string }) => m.object_id)).toEqual([ESID]);
    expect(expectWrapper(await preview({ seeds: [{ type: 2, value: 'MATCH (' }] }), 400).message).toMatch(/cypher is invalid/);
    expectWrapper(await preview({}), 400);
    expectWrapper(await preview({ seeds: [{ type: 2, value: 'MATCH (n) RETURN n' }], expansion: 9 }), 400);
    expectWrapper(await request(t.app).post('/api/v2/asset-group-tags/preview-selectors').send({ seeds: [] }), 401);
  });

  it('analysis puts what a Tier Zero Cypher selector returns into Tier Zero (the Tag_Tier_Zero kind)', async () => {
    const tierZero = await tierZeroTagId(t);
    const isTierZero = async () => {
      const res = await request(t.app)
        .post('/api/v2/graphs/cypher')
        .set(admin())
        .send({ query: `MATCH (u:User {objectid: '${ESID}'}) RETURN u` });
      return res.body.data.nodes[Object.keys(res.body.data.nodes)[0]!].isTierZero as boolean;
    };
    expect(await isTierZero()).toBe(false);
    const res = await adminPost(
      t,
      `/api/v2/asset-group-tags/${tierZero}/selectors`,
    )({
      name: 'ESID by Cypher',
      seeds: [{ type: 2, value: "MATCH (u:User) WHERE u.name = 'ESID@TESTLAB.LOCAL' RETURN u" }],
    });
    expect(res.status).toBe(201);
    expect((await request(t.app).put('/api/v2/analysis').set(admin())).status).toBe(204);
    await t.services.datapipe.drain();
    expect(await isTierZero()).toBe(true);
  });
});
