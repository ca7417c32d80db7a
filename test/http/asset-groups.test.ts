import request from 'supertest';
import { adminPost, expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

const DOMAIN_ADMINS = 'S-1-5-21-3130019616-2776909439-2417379446-512';
const ADMINISTRATOR = 'S-1-5-21-3130019616-2776909439-2417379446-500';

describe('zones, labels and certification (endpoint 5)', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let tierZero: number;
  const memberId = async (tagId: number, objectId: string) => {
    const res = await request(t.app).get(`/api/v2/asset-group-tags/${tagId}/members?limit=1000`).set(admin());
    return res.body.data.members.find((m: { object_id: string }) => m.object_id === objectId)?.id as number;
  };
  const certify = adminPost(t, '/api/v2/asset-group-tags/certifications');

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    tierZero = await tierZeroTagId(t);
  });

  it('seeds a Tier Zero zone that analysis fills', async () => {
    const res = await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}`).set(admin());
    expect(res.body.data.tag).toMatchObject({ type: 1, name: 'Tier Zero', position: 1, require_certify: true });
    expect(res.body.data.tag.member_count).toBeGreaterThan(5);
    const members = await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members?limit=2`).set(admin());
    expect(members.body).toMatchObject({ count: res.body.data.tag.member_count, skip: 0, limit: 2 });
    expect(members.body.data.members).toHaveLength(2);
    expect(members.body.data.members[0]).toEqual({
      id: expect.any(Number),
      object_id: expect.any(String),
      name: expect.any(String),
      primary_kind: expect.any(String),
      kinds: expect.arrayContaining(['Tag_Tier_Zero']),
      asset_group_tag_id: tierZero,
      certified: 0,
      certified_by: { string: '', valid: false },
    });
    expect(await memberId(tierZero, DOMAIN_ADMINS)).toEqual(expect.any(Number));
  });

  it('certifies (the default action) and revokes, recording who, when and the note on the member', async () => {
    const da = await memberId(tierZero, DOMAIN_ADMINS);
    const first = await certify({ member_ids: [da], note: 'reviewed in the Q4 audit' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { action: 'certify', changed: [da], unchanged: [] } });
    expect((await certify({ member_ids: [da], action: 2 })).body.data).toEqual({ action: 'certify', changed: [], unchanged: [da] });
    const revoked = await certify({ member_ids: [da], action: 'revoke', note: 'no longer needed' });
    expect(revoked.body.data).toEqual({ action: 'revoke', changed: [da], unchanged: [] });
    expect((await certify({ member_ids: [da], action: 1 })).body.data.unchanged).toEqual([da]);

    const detail = await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members/${da}`).set(admin());
    expect(detail.status).toBe(200);
    expect(detail.body.data.member).toMatchObject({
      id: da,
      object_id: DOMAIN_ADMINS,
      certified: 1,
      certified_by: { string: 'admin', valid: true },
      // the analysis tag and the seeded rule selector both select it
      selectors: expect.arrayContaining([
        expect.objectContaining({ name: 'Tier Zero (analysis)', is_default: true }),
        expect.objectContaining({
          name: 'Domain Admins',
          seeds: [expect.objectContaining({ type: 'rule', value: 'kind:Group objectid$=-512' })],
        }),
      ]),
      certification_history: [
        expect.objectContaining({
          action: 2,
          previous: 0,
          note: 'reviewed in the Q4 audit',
          actor: 'admin',
          created_at: expect.any(String),
        }),
        expect.objectContaining({ action: 1, previous: 2, note: 'no longer needed', actor: 'admin' }),
      ],
    });
  });

  it('rejects bad input with 400 and changes nothing (all or nothing)', async () => {
    const adm = await memberId(tierZero, ADMINISTRATOR);
    const cases: [unknown, RegExp][] = [
      [{ member_ids: [], note: 'x' }, /member_ids must be a non-empty list/],
      [{ note: 'x' }, /member_ids must be a non-empty list/],
      [{ member_ids: ['12'] }, /positive integers only/],
      [{ member_ids: [1.5] }, /positive integers only/],
      [{ member_ids: [adm], action: 3 }, /action must be 2 or "certify"/],
      [{ member_ids: [adm], action: 'approve' }, /action must be/],
      [{ member_ids: [adm], note: 42 }, /note must be a string/],
      [{ member_ids: [adm, 99999999] }, /Not members of any zone: 99999999\./],
    ];
    for (const [body, reason] of cases) {
      const err = expectWrapper(await certify(body), 400);
      expect({ body, message: err.message }).toEqual({ body, message: expect.stringMatching(reason) });
    }
    const detail = await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members/${adm}`).set(admin());
    expect(detail.body.data.member).toMatchObject({ certified: 0, certification_history: [] });
    expectWrapper(await request(t.app).post('/api/v2/asset-group-tags/certifications').set(admin()).send([1]), 400);
  });

  it('needs graphdb/Write to certify and a caller to read', async () => {
    const ro = await userWithRole(t, 'Read-Only');
    const adm = await memberId(tierZero, ADMINISTRATOR);
    expectWrapper(
      await request(t.app)
        .post('/api/v2/asset-group-tags/certifications')
        .set('Authorization', `Bearer ${ro.jwt}`)
        .send({ member_ids: [adm] }),
      403,
    );
    expect((await request(t.app).get('/api/v2/asset-group-tags').set('Authorization', `Bearer ${ro.jwt}`)).status).toBe(200);
    expectWrapper(await request(t.app).get('/api/v2/asset-group-tags'), 401);
  });

  it('makes labels and zones with selectors by object id and by kind; label members cannot be certified', async () => {
    const label = await request(t.app).post('/api/v2/asset-group-tags').set(admin()).send({ type: 'label', name: 'Crown jewels' });
    expect(label.status).toBe(201);
    expect(label.body.data).toMatchObject({ type: 2, name: 'Crown jewels', position: null, member_count: 0 });
    const id = label.body.data.id;
    const sel = await request(t.app)
      .post(`/api/v2/asset-group-tags/${id}/selectors`)
      .set(admin())
      .send({
        name: 'Computers and one user',
        seeds: [
          { type: 'kind', value: 'Computer' },
          { type: 1, value: ADMINISTRATOR.toLowerCase() },
        ],
      });
    expect(sel.status).toBe(201);
    const computers = (await t.infra.graphStore.nodeIdsWithKinds(['Computer'])).length;
    expect(computers).toBeGreaterThanOrEqual(4);
    expect(sel.body.data).toMatchObject({
      asset_group_tag_id: id,
      member_count: computers + 1,
      is_default: false,
      seeds: [
        { type: 'kind', value: 'Computer' },
        { type: 1, value: ADMINISTRATOR },
      ],
    });
    const members = await request(t.app).get(`/api/v2/asset-group-tags/${id}/members`).set(admin());
    expect(members.body.count).toBe(computers + 1);
    let outsideZones: { id: number } | undefined;
    for (const m of members.body.data.members) if ((await memberId(tierZero, m.object_id)) === undefined) outsideZones = m;
    expect(outsideZones).toBeDefined(); // a workstation: in the label, in no zone
    expect(expectWrapper(await certify({ member_ids: [outsideZones!.id] }), 400).message).toMatch(/Not members of any zone/);

    const zone = await request(t.app)
      .post('/api/v2/asset-group-tags')
      .set(admin())
      .send({ type: 1, name: 'Tier One', require_certify: true });
    expect(zone.body.data).toMatchObject({ type: 1, position: 2 });
    const auto = await request(t.app)
      .post(`/api/v2/asset-group-tags/${zone.body.data.id}/selectors`)
      .set(admin())
      .send({ name: 'all GPOs', seeds: [{ type: 'kind', value: 'GPO' }], auto_certify: true });
    expect(auto.body.data.member_count).toBe(7);
    const gpos = await request(t.app)
      .get(`/api/v2/asset-group-tags/${zone.body.data.id}/members?selector_id=${auto.body.data.id}`)
      .set(admin());
    expect(gpos.body.data.members.every((m: { certified: number }) => m.certified === 3)).toBe(true);

    const renamed = await request(t.app)
      .patch(`/api/v2/asset-group-tags/${id}`)
      .set(admin())
      .send({ name: 'Crown Jewels', description: 'what we protect' });
    expect(renamed.body.data).toMatchObject({ name: 'Crown Jewels', description: 'what we protect', updated_by: 'admin' });
    const narrowed = await request(t.app)
      .patch(`/api/v2/asset-group-tags/${id}/selectors/${sel.body.data.id}`)
      .set(admin())
      .send({ seeds: [{ type: 'objectid', value: ADMINISTRATOR }] });
    expect(narrowed.body.data.member_count).toBe(1);
    expect((await request(t.app).get(`/api/v2/asset-group-tags/${id}/selectors`).set(admin())).body.data.selectors).toHaveLength(1);
    await request(t.app).delete(`/api/v2/asset-group-tags/${id}/selectors/${sel.body.data.id}`).set(admin()).expect(204);
    await request(t.app).delete(`/api/v2/asset-group-tags/${id}`).set(admin()).expect(204);
    expectWrapper(await request(t.app).get(`/api/v2/asset-group-tags/${id}`).set(admin()), 404);
  });

  it('answers bad tag and selector requests with clear 4xx', async () => {
    const post = adminPost(t, '/api/v2/asset-group-tags');
    expect(expectWrapper(await post({ type: 'tier', name: 'x' }), 400).message).toMatch(/type must be "zone"/);
    expect(expectWrapper(await post({ type: 'zone' }), 400).message).toMatch(/name is required/);
    expect(expectWrapper(await post({ type: 'label', name: 'x', position: 3 }), 400).message).toMatch(/position/);
    expect(expectWrapper(await post({ type: 'zone', name: 'tier zero' }), 409).message).toMatch(/already exists/);
    expect(expectWrapper(await request(t.app).delete(`/api/v2/asset-group-tags/${tierZero}`).set(admin()), 409).message).toMatch(
      /Tier Zero cannot be deleted/,
    );
    const selectors = await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/selectors`).set(admin());
    const def = selectors.body.data.selectors[0].id;
    expectWrapper(await request(t.app).delete(`/api/v2/asset-group-tags/${tierZero}/selectors/${def}`).set(admin()), 409);
    const sel = adminPost(t, `/api/v2/asset-group-tags/${tierZero}/selectors`);
    expect(expectWrapper(await sel({ name: 's' }), 400).message).toMatch(/seeds is required/);
    expect(expectWrapper(await sel({ name: 's', seeds: [{ type: 'sql', value: 'select 1' }] }), 400).message).toMatch(/seeds\[0\].type/);
    expect(expectWrapper(await sel({ name: 's', seeds: [{ type: 'kind', value: '' }] }), 400).message).toMatch(/seeds\[0\].value/);
    expectWrapper(await request(t.app).get('/api/v2/asset-group-tags/abc').set(admin()), 400);
    expectWrapper(await request(t.app).get('/api/v2/asset-group-tags/99999').set(admin()), 404);
    expectWrapper(await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members/99999999`).set(admin()), 404);
    expectWrapper(await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members?selector_id=99999`).set(admin()), 404);
  });

  it('works the same over GraphQL', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set(admin())
      .send({
        query: `query ($id: Int!) { assetGroupTag(id: $id) { name members(limit: 1) { totalCount members { objectId certified } } selectors { name isDefault } } }`,
        variables: { id: tierZero },
      });
    expect(res.body.data.assetGroupTag).toMatchObject({
      name: 'Tier Zero',
      selectors: expect.arrayContaining([
        { name: 'Tier Zero (analysis)', isDefault: true },
        { name: 'Certificate template', isDefault: false },
      ]),
    });
    expect(res.body.data.assetGroupTag.members.members).toHaveLength(1);
  });

  it('lists member certifications and pages selectors over GraphQL, typed filters in, enums out', async () => {
    const gql = (query: string, variables: object) => request(t.app).post('/graphql').set(admin()).send({ query, variables });
    const q = `query ($f: [MemberCertificationFilter!]) {
      memberCertifications(limit: 500, filters: $f) { totalCount members { id objectId primaryKind tagId certified environmentId createdAt } } }`;
    const groups = await gql(q, {
      f: [
        { column: 'PRIMARY_KIND', value: 'eq:Group' },
        { column: 'ASSET_GROUP_TAG_ID', value: `${tierZero}` },
      ],
    });
    const list = groups.body.data.memberCertifications;
    expect(list.totalCount).toBeGreaterThan(0);
    const da = list.members.find((m: { objectId: string }) => m.objectId === DOMAIN_ADMINS);
    expect(da).toMatchObject({ primaryKind: 'Group', tagId: tierZero, certified: expect.stringMatching(/^[A-Z]+$/) });
    expect(da.environmentId).toBe(DOMAIN_ADMINS.replace(/-512$/, ''));
    const bad = await gql(q, { f: [{ column: 'CERTIFIED', value: 'soon' }] });
    expect(bad.body.errors[0].message).toMatch(/certified must be an integer/);
    expect((await gql(q, { f: [{ column: 'COLOUR', value: 'red' }] })).body.errors).toBeDefined();

    const sel = await gql(
      `query ($id: Int!) { assetGroupTag(id: $id) { selectorList(skip: 0, limit: 1) { totalCount limit selectors { id seeds { selectorId } } } } }`,
      {
        id: tierZero,
      },
    );
    const page = sel.body.data.assetGroupTag.selectorList;
    expect(page).toMatchObject({ limit: 1, selectors: [expect.objectContaining({ id: expect.any(Number) })] });
    expect(page.totalCount).toBeGreaterThan(1);
    for (const seed of page.selectors[0].seeds) expect(seed.selectorId).toBe(page.selectors[0].id);
  });
});
