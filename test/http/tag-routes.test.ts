import request from 'supertest';
import { expectWrapper, useTestApp } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

describe('asset-group-tag reads of BloodHound (issue 12)', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const get = (p: string) => request(t.app).get(p).set(admin());
  let tierZero: number;

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    tierZero = await tierZeroTagId(t);
  });

  it('counts members per primary kind (not taken for a member id)', async () => {
    const tag = (await get(`/api/v2/asset-group-tags/${tierZero}`)).body.data.tag;
    const res = await get(`/api/v2/asset-group-tags/${tierZero}/members/counts`);
    expect(res.status).toBe(200);
    expect(res.body.data.total_count).toBe(tag.member_count);
    const sum = Object.values(res.body.data.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(sum).toBe(tag.member_count);
    expect(res.body.data.counts.Group).toBeGreaterThan(0);
  });

  it('reads one selector and its members', async () => {
    const selectors = (await get(`/api/v2/asset-group-tags/${tierZero}/selectors`)).body.data.selectors;
    const s = selectors[0];
    const one = await get(`/api/v2/asset-group-tags/${tierZero}/selectors/${s.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.selector).toEqual(s);
    const members = await get(`/api/v2/asset-group-tags/${tierZero}/selectors/${s.id}/members?limit=5`);
    expect(members.status).toBe(200);
    expect(members.body).toMatchObject({ skip: 0, limit: 5, data: { members: expect.any(Array) } });
    const counts = await get(`/api/v2/asset-group-tags/${tierZero}/members/counts?selector_id=${s.id}`);
    expect(counts.body.data.total_count).toBe(members.body.count);
  });

  it('lists certification records at GET …/certifications (not taken for a tag id)', async () => {
    const members = (await get(`/api/v2/asset-group-tags/${tierZero}/members?limit=2`)).body.data.members;
    const ids = members.map((m: { id: number }) => m.id);
    const certified = await request(t.app)
      .post('/api/v2/asset-group-tags/certifications')
      .set(admin())
      .send({ member_ids: ids, action: 2, note: 'reviewed' });
    expect(certified.status).toBe(200);
    const res = await get('/api/v2/asset-group-tags/certifications?limit=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ skip: 0, limit: 1, data: { records: [expect.objectContaining({ action: 2, note: 'reviewed' })] } });
    expect(res.body.count).toBeGreaterThanOrEqual(1);
    const ofTag = await get(`/api/v2/asset-group-tags/certifications?asset_group_tag_id=${tierZero}`);
    expect(ofTag.body.data.records.every((r: { member_id: number }) => ids.includes(r.member_id))).toBe(true);
    expectWrapper(await get('/api/v2/asset-group-tags/certifications?limit=abc'), 400);
    expectWrapper(await get('/api/v2/asset-group-tags/certifications?limit=100000'), 400);
    expectWrapper(await get('/api/v2/asset-group-tags/certifications?asset_group_tag_id=999999'), 404);
  });

  it('404 for an unknown selector or tag, 400 for a bad id, 401 without credentials', async () => {
    expectWrapper(await get(`/api/v2/asset-group-tags/${tierZero}/selectors/999999`), 404);
    expectWrapper(await get('/api/v2/asset-group-tags/999999/members/counts'), 404);
    expectWrapper(await get(`/api/v2/asset-group-tags/${tierZero}/selectors/abc`), 400);
    expectWrapper(await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members/counts`), 401);
  });
});
