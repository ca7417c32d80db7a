import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

const DOMAIN_ADMINS = 'S-1-5-21-3130019616-2776909439-2417379446-512';
const ADMINISTRATOR = 'S-1-5-21-3130019616-2776909439-2417379446-500';

describe('zone history, tag search, tag fields and the legacy asset-group API', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const get = (path: string) => request(t.app).get(path).set(admin());
  let tierZero: number;

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    tierZero = await tierZeroTagId(t);
  });

  it('answers the tag fields BloodHound adds: kind_id, analysis_enabled, glyph', async () => {
    const res = await get(`/api/v2/asset-group-tags/${tierZero}`);
    expect(res.status).toBe(200);
    // Analysis tagged Tier Zero members, so the graph has the zone's kind.
    expect(res.body.data.tag).toMatchObject({ analysis_enabled: true, glyph: null, kind_id: expect.any(Number) });

    const created = await request(t.app)
      .post('/api/v2/asset-group-tags')
      .set(admin())
      .send({ type: 2, name: 'Glyph Label', glyph: 'star', analysis_enabled: true });
    expect(created.status).toBe(201);
    // A label carries no analysis flag; no node has its kind yet.
    expect(created.body.data).toMatchObject({ glyph: 'star', analysis_enabled: null, kind_id: null });
    const zone = await request(t.app).post('/api/v2/asset-group-tags').set(admin()).send({ type: 1, name: 'Zone Two' });
    expect(zone.body.data.analysis_enabled).toBe(false);
    const enabled = await request(t.app)
      .patch(`/api/v2/asset-group-tags/${zone.body.data.id}`)
      .set(admin())
      .send({ analysis_enabled: true });
    expect(enabled.body.data.analysis_enabled).toBe(true);
    const off = await request(t.app).patch(`/api/v2/asset-group-tags/${tierZero}`).set(admin()).send({ analysis_enabled: false });
    expect(expectWrapper(off, 400).message).toMatch(/Tier Zero is always analysed/);
  });

  it('records every change in the history, with the actor, and filters and searches it', async () => {
    const user = await userWithRole(t, 'Administrator', 'history-admin');
    const auth = { Authorization: `Bearer ${user.jwt}` };
    const made = await request(t.app).post('/api/v2/asset-group-tags').set(auth).send({ type: 2, name: 'History Label' });
    const tagId = made.body.data.id as number;
    const sel = await request(t.app)
      .post(`/api/v2/asset-group-tags/${tagId}/selectors`)
      .set(auth)
      .send({ name: 'admins', seeds: [{ type: 1, value: DOMAIN_ADMINS }] });
    expect(sel.status).toBe(201);
    await request(t.app).delete(`/api/v2/asset-group-tags/${tagId}/selectors/${sel.body.data.id}`).set(auth).expect(204);
    await request(t.app).delete(`/api/v2/asset-group-tags/${tagId}`).set(auth).expect(204);

    const res = await get(`/api/v2/asset-group-tags-history?asset_group_tag_id=${tagId}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    // Newest first by default.
    expect(res.body.data.records.map((r: { action: string; target: string }) => [r.action, r.target])).toEqual([
      ['DeleteTag', 'History Label'],
      ['DeleteSelector', 'admins'],
      ['CreateSelector', 'admins'],
      ['CreateTag', 'History Label'],
    ]);
    expect(res.body.data.records[0]).toMatchObject({ actor: user.id, asset_group_tag_id: tagId, note: { valid: false } });

    const asc = await get(`/api/v2/asset-group-tags-history?asset_group_tag_id=${tagId}&sort_by=created_at&action=~eq:selector&limit=1`);
    expect(asc.body).toMatchObject({ count: 2, limit: 1, data: { records: [{ action: 'CreateSelector' }] } });

    const searched = await request(t.app).post('/api/v2/asset-group-tags-history').set(admin()).send({ query: 'History Lab' });
    expect(searched.status).toBe(200);
    expect(searched.body.count).toBe(2);

    expectWrapper(await get('/api/v2/asset-group-tags-history?colour=red'), 400);
    expectWrapper(await get('/api/v2/asset-group-tags-history?created_at=gt:yesterday'), 400);
    expectWrapper(await get('/api/v2/asset-group-tags-history?sort_by=actor'), 400);
    expectWrapper(await request(t.app).post('/api/v2/asset-group-tags-history').set(admin()).send({}), 400);
  });

  it('records certifications with the member object id', async () => {
    const members = await get(`/api/v2/asset-group-tags/${tierZero}/members?limit=1000`);
    const da = members.body.data.members.find((m: { object_id: string }) => m.object_id === DOMAIN_ADMINS);
    const res = await request(t.app)
      .post('/api/v2/asset-group-tags/certifications')
      .set(admin())
      .send({ member_ids: [da.id], action: 2, note: 'checked' });
    expect(res.status).toBe(200);
    const h = await get(`/api/v2/asset-group-tags-history?action=CertifyNodeManual`);
    expect(h.body.data.records[0]).toMatchObject({ target: DOMAIN_ADMINS, asset_group_tag_id: tierZero, note: { string: 'checked' } });
  });

  it('searches tags, selectors and members by name or object id', async () => {
    const res = await request(t.app).post('/api/v2/asset-group-tags/search').set(admin()).send({ query: 'domain admins', tag_type: 1 });
    expect(res.status).toBe(200);
    expect(res.body.data.members.map((m: { object_id: string }) => m.object_id)).toContain(DOMAIN_ADMINS);
    const tags = await request(t.app).post('/api/v2/asset-group-tags/search').set(admin()).send({ query: 'tier', tag_type: 1 });
    expect(tags.body.data.tags.map((x: { id: number }) => x.id)).toContain(tierZero);
    const short = await request(t.app).post('/api/v2/asset-group-tags/search').set(admin()).send({ query: 'ab', tag_type: 1 });
    expect(expectWrapper(short, 400).message).toMatch(/3 to 200/);
    expectWrapper(await request(t.app).post('/api/v2/asset-group-tags/search').set(admin()).send({ query: 'admins', tag_type: 7 }), 400);
  });

  it('serves selector member counts', async () => {
    const sels = await get(`/api/v2/asset-group-tags/${tierZero}/selectors`);
    const s = sels.body.data.selectors[0];
    const res = await get(`/api/v2/asset-group-tags/${tierZero}/selectors/${s.id}/members/counts`);
    expect(res.status).toBe(200);
    expect(res.body.data.total_count).toBe(s.member_count);
  });

  describe('the legacy asset-group API', () => {
    it('lists Tier Zero as the system group admin_tier_0 with its selectors and members', async () => {
      const res = await get('/api/v2/asset-groups');
      expect(res.status).toBe(200);
      const t0 = res.body.data.asset_groups.find((g: { id: number }) => g.id === tierZero);
      expect(t0).toMatchObject({ name: 'Tier Zero', tag: 'admin_tier_0', system_group: true });
      expect(t0.member_count).toBeGreaterThan(5);
      expect(t0.selectors[0]).toMatchObject({ asset_group_id: tierZero, system_selector: true });

      const members = await get(`/api/v2/asset-groups/${tierZero}/members?limit=500`);
      expect(members.body.count).toBe(t0.member_count);
      const da = members.body.data.members.find((m: { object_id: string }) => m.object_id === DOMAIN_ADMINS);
      expect(da).toMatchObject({
        asset_group_id: tierZero,
        primary_kind: 'Group',
        environment_kind: 'Domain',
        environment_id: 'S-1-5-21-3130019616-2776909439-2417379446',
        custom_member: expect.any(Boolean),
      });
      const counts = await get(`/api/v2/asset-groups/${tierZero}/members/counts`);
      expect(counts.body.data.total_count).toBe(t0.member_count);
      expect(counts.body.data.counts.Group).toBeGreaterThan(0);
      const combo = await get(`/api/v2/asset-groups/${tierZero}/combo-node`);
      expect(Object.keys(combo.body.data.nodes)).toHaveLength(t0.member_count);
      const collections = await get(`/api/v2/asset-groups/${tierZero}/collections`);
      expect(collections.body.data[0].entries).toHaveLength(t0.member_count);
    });

    it('creates a group, adds and removes selectors by object id, renames and deletes it', async () => {
      const created = await request(t.app).post('/api/v2/asset-groups').set(admin()).send({ name: 'Crown Jewels', tag: 'crown_jewels' });
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`/api/v2/asset-groups/${created.body.data.id}`);
      expect(created.body.data).toMatchObject({ name: 'Crown Jewels', tag: 'crown_jewels', system_group: false, member_count: 0 });
      const id = created.body.data.id as number;
      const dup = await request(t.app).post('/api/v2/asset-groups').set(admin()).send({ name: 'Other', tag: 'crown_jewels' });
      expectWrapper(dup, 409);

      const added = await request(t.app)
        .put(`/api/v2/asset-groups/${id}/selectors`)
        .set(admin())
        .send([{ selector_name: 'administrator', sid: ADMINISTRATOR.toLowerCase(), action: 'add' }]);
      expect(added.status).toBe(201);
      expect(added.body.data.added_selectors[0]).toMatchObject({ name: 'administrator', selector: ADMINISTRATOR, asset_group_id: id });
      const members = await get(`/api/v2/asset-groups/${id}/members`);
      expect(members.body.data.members).toEqual([expect.objectContaining({ object_id: ADMINISTRATOR, custom_member: true })]);

      const renamed = await request(t.app).put(`/api/v2/asset-groups/${id}`).set(admin()).send({ name: 'Jewels' });
      expect(renamed.body.data).toMatchObject({ name: 'Jewels', tag: 'crown_jewels', member_count: 1 });

      const removed = await request(t.app)
        .put(`/api/v2/asset-groups/${id}/selectors`)
        .set(admin())
        .send([{ selector_name: 'administrator', sid: ADMINISTRATOR, action: 'remove' }]);
      expect(removed.body.data.removed_selectors).toHaveLength(1);
      expect((await get(`/api/v2/asset-groups/${id}`)).body.data.member_count).toBe(0);
      expectWrapper(
        await request(t.app)
          .put(`/api/v2/asset-groups/${id}/selectors`)
          .set(admin())
          .send([{ selector_name: 'x', sid: 'y', action: 'move' }]),
        400,
      );
      expectWrapper(await request(t.app).put(`/api/v2/asset-groups/${id}/selectors`).set(admin()).send({ selector_name: 'x' }), 400);

      await request(t.app).delete(`/api/v2/asset-groups/${id}`).set(admin()).expect(200);
      expectWrapper(await get(`/api/v2/asset-groups/${id}`), 404);
      expectWrapper(await request(t.app).delete(`/api/v2/asset-groups/${tierZero}`).set(admin()), 409);
      const sels = await get(`/api/v2/asset-groups/${tierZero}`);
      const sys = sels.body.data.selectors[0].id;
      expectWrapper(await request(t.app).delete(`/api/v2/asset-groups/${tierZero}/selectors/${sys}`).set(admin()), 409);
    });

    it('lets a read-only user list but not change groups', async () => {
      const reader = await userWithRole(t, 'Read-Only');
      const auth = { Authorization: `Bearer ${reader.jwt}` };
      expect((await request(t.app).get('/api/v2/asset-groups').set(auth)).status).toBe(200);
      expectWrapper(await request(t.app).post('/api/v2/asset-groups').set(auth).send({ name: 'x', tag: 'x' }), 403);
    });
  });
});
